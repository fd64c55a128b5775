// status: waiting
// swarm: yes
// A child that never answers is pending work: the run parks at the
// deadline like a slow tool (and the corpus aborts it, which ends the
// child).
phase("waiting on a slow child");
return await agents.run("slow", { label: "sloth" });

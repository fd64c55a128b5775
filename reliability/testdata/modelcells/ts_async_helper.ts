// status: completed
// value: {"ISS-1":"open","ISS-4":"closed","ISS-9":"missing"}
interface Issue {
  id: string;
  title: string;
  state: "open" | "closed";
}

async function stateOf(id: string): Promise<Issue["state"] | "missing"> {
  try {
    const issue: Issue = await Issues.get(id);
    return issue.state;
  } catch {
    return "missing";
  }
}

const ids: string[] = ["ISS-1", "ISS-4", "ISS-9"];
const states = await Promise.all(ids.map(stateOf));
return Object.fromEntries(ids.map((id, i) => [id, states[i]!]));

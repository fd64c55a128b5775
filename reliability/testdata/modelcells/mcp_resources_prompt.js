// status: completed
// value: {"memo":"Release memo: version 1.4 ships on Friday. Freeze merges on Thursday at noon.","role":"user","hasResources":true}
const memo = await MCP.docs.resources.read({ uri: "memo://one" });
const prompt = await MCP.everything.prompts.get({ name: "simple-prompt" });
const listed = await MCP.everything.resources.list();
return { memo: memo.contents[0].text, role: prompt.messages[0].role, hasResources: listed.resources.length > 0 };

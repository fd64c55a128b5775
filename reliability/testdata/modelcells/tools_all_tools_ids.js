// status: completed
// value-contains: "openclaw:demo:shipping_list"
// value-contains: "openclaw:tracker:issues_update"
const ids = ALL_TOOLS.map(t => t.id);
return ids.sort();

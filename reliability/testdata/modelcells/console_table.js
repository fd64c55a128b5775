// status: completed
// output-contains: │ (index) │ name  │ stars │
// output-contains: │ 0       │ 'api' │ 120   │
const repos = [{ name: "api", stars: 120 }, { name: "web", stars: 45 }];
console.table(repos);

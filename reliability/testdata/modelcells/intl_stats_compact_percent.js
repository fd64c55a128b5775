// status: completed
// value: {"stars":"12K","downloads":"3.4M","growth":"+12.5%","share":"7\u00a0%","views":"1,234,567"}
// Repository stats the way dashboards print them.
const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
return {
  stars: compact.format(12040),
  downloads: compact.format(3412345),
  growth: new Intl.NumberFormat("en-US", { style: "percent", signDisplay: "exceptZero", minimumFractionDigits: 1 }).format(0.125),
  share: (0.07).toLocaleString("de-DE", { style: "percent" }),
  views: (1234567).toLocaleString(),
};

const t0 = performance.now();
for (const m of process.argv.slice(2)) {
  const t = performance.now();
  await import(m);
  console.log((performance.now() - t).toFixed(1).padStart(7), m);
}
console.log("total", (performance.now() - t0).toFixed(1), "cpu", JSON.stringify(process.cpuUsage()));

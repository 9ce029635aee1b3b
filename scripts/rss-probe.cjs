// Preloaded by the bench (`node --require`): records this process's peak RSS (KiB) and the CPU it
// used (ms, user + system, all threads) at exit, as JSON.
const { writeFileSync } = require('node:fs');

process.on('exit', () => {
  if (!process.env.PDS_RSS_FILE) return;
  const usage = process.resourceUsage();
  writeFileSync(
    process.env.PDS_RSS_FILE,
    JSON.stringify({ maxRssKb: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }),
  );
});

// Builds compared fairly on a shared machine (the A/B scripts of issue 17): each build is served
// at /roofline/, then each round visits every build, in turn A B, then B A, …, so that a busy
// minute falls on all of them. Compare builds only within one run of a script.
import { serve } from '../../scripts/serve.mjs';

/// Runs `visit(url, round)` `rounds` times per build, alternating, and returns each build's
/// `{dist, runs}` (the values `visit` returned), in the order given. `options`: `serve`'s.
export async function alternate(dists, rounds, visit, options = {}) {
  const builds = [];
  for (const dist of dists) builds.push({ dist, site: await serve(dist, 0, '/roofline/', options), runs: [] });
  try {
    for (let round = 0; round < rounds; round++) {
      for (const b of round % 2 ? [...builds].reverse() : builds) b.runs.push(await visit(b.site.url, round));
    }
  } finally {
    for (const b of builds) b.site.server.close();
  }
  return builds.map(({ dist, runs }) => ({ dist, runs }));
}

/// The value at quantile `q` of `xs` (0.5: the median, the lower middle of an even count).
export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) * q)];
}

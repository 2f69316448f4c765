import { parser } from '@prometheus-io/lezer-promql';
import fs from 'fs';
const dash = JSON.parse(fs.readFileSync(process.argv[2] + '/sluice-outage.json'));
const exprs = [];
for (const p of dash.panels) for (const t of (p.targets||[])) exprs.push([p.title, t.expr]);
const yml = fs.readFileSync(process.argv[2] + '/sluice-alerts.yml','utf8');
// the rules' exprs: the YAML folded scalars, joined (">-" folds lines with spaces)
const re = /expr: (>-\n((?:          .*\n)+)|(.*)\n)/g; let m;
while ((m = re.exec(yml))) exprs.push(['rule', (m[2] ? m[2].split('\n').map(s=>s.trim()).join(' ') : m[3]).trim()]);
let bad = 0;
for (const [where, e0] of exprs) {
  const e = e0.replaceAll('$__rate_interval','5m').replaceAll('$max_age','5').replaceAll('$recovery_threshold','0.8');
  const tree = parser.parse(e); let err = null;
  tree.iterate({ enter: n => { if (n.type.isError && !err) err = n.from; } });
  if (err !== null) { bad++; console.log('ERROR', where, err, e); }
}
console.log(exprs.length, 'expressions,', bad, 'with a syntax error (lezer-promql 0.315.0)');
// and one that must fail, to show the check can
const t = parser.parse('sum(rate(x[5m])'); let e2=false; t.iterate({enter:n=>{if(n.type.isError)e2=true;}}); console.log('unbalanced refused:', e2);

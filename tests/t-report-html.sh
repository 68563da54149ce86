# t-report-html.sh — the HTML pages in a real browser (headless Chromium):
# the digest's tables and chart image are in the DOM, a description's
# <script> is text and never runs, and every image the page references
# loads with its real size; a person's way through the pages, clicked in
# the browser: index → the day → a run's page (its curve image loaded) →
# its parent, and the curve SVG drawn; the campaign report's compare view
# (the side-by-side table, the overlaid curves SVG loaded, a run link below
# the table followed to its page). Skipped (one "# SKIP" line)
# without chromium.
. "$ROOT/tests/lib.sh"
need jq jq
CHROMIUM=$(command -v chromium || command -v chromium-browser)
if [ -z "$CHROMIUM" ]; then
	ok report-html-0 "# SKIP chromium not installed"
	exit 0
fi
have_gnuplot=$(command -v "${RUNLEDGER_GNUPLOT:-gnuplot}")
browse() { # URL [extra flags]: the DOM after load, scripts allowed to run
	url=$1; shift
	timeout 60 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$PWD/profile" \
		"$@" --dump-dom "$url" 2>/dev/null
}
F="$FIXTURES/report/runs.jsonl"
"$LEDGER" --db l.db ingest "$F" >/dev/null 2>&1
# A run whose description would mark the page if its script ever ran.
jq -c 'select(.run_id == "b200-mlp5") | .run_id = "b200-xss" | .finished_at = "2026-03-16T17:30:00Z"
	| .description = "<script>document.documentElement.setAttribute(\"data-pwned\", \"1\")</script><img src=x onerror=\"document.title=1\">"' \
	"$F" >xss.jsonl
"$LEDGER" --db l.db ingest xss.jsonl >/dev/null 2>&1
"$REPORT" --db l.db daily --date 2026-03-16 --out out >/dev/null 2>&1
dom=$(browse "file://$PWD/out/2026-03-16.html")
expect_match report-html-1 "page loads with its title" "$dom" '<title>runledger daily digest 2026-03-16</title>'
expect_eq report-html-2 "every markdown table is an HTML table" \
	"$(grep -c '^| --- \|^| ---: ' out/2026-03-16.md)" "$(printf '%s' "$dom" | grep -o '<table>' | wc -l)"
if [ -n "$have_gnuplot" ]; then
	expect_match report-html-3 "the chart is an <img> of the svg" "$dom" '<img src="charts/2026-03-16-frontier.svg"'
else
	expect_match report-html-3 "without gnuplot the page says the chart was skipped" "$dom" 'Chart skipped: gnuplot not found'
fi
expect_no_match report-html-4 "no <script> element from run text" "$dom" '<script'
expect_no_match report-html-4.1 "the script did not run" "$dom" '<html[^>]*data-pwned'
expect_match report-html-4.2 "the description shows as text" "$dom" '&lt;script&gt;document.documentElement.setAttribute'
expect_no_match report-html-4.3 "no <img> from run text" "$dom" '<img src="x"'
index=$(browse "file://$PWD/out/index.html")
expect_match report-html-6 "index links the digest" "$index" '<a href="2026-03-16.html">2026-03-16</a>'

# Click through in the browser: a driver page beside the reports loads each
# page in an iframe and clicks a real link (element.click(): the browser
# follows it), index → day → run → parent, then opens the curve SVG as a
# document and measures its drawn loss line. File pages may read each other
# only with --allow-file-access-from-files.
cat >out/click.html <<'HTML'
<!DOCTYPE html><html><body><pre id="r"></pre><iframe id="f" width="400" height="800"></iframe><script>
var f = document.getElementById('f'), step = 0;
function say(s) { document.getElementById('r').textContent += s + "\n"; }
function link(d, test) { return Array.prototype.find.call(d.querySelectorAll('a'), test); }
var plan = [
  function (d) { say('1 ' + d.title); link(d, function (a) { return a.textContent == '2026-03-16'; }).click(); },
  function (d) { say('2 ' + d.title);
    var a = link(d, function (a) { return a.textContent == 'b200-fa4'; });
    say('2 link ' + a.getAttribute('href')); a.click(); },
  function (d) { say('3 ' + d.title);
    var img = d.querySelector('img[src$="-curve.svg"]');
    say('3 curve ' + img.getAttribute('src') + ' ' + (img.complete ? img.naturalWidth + 'x' + img.naturalHeight : 'not loaded'));
    var p = Array.prototype.find.call(d.querySelectorAll('p'), function (x) { return x.textContent.indexOf('Parent:') == 0; });
    p.querySelector('a').click(); },
  function (d) { say('4 ' + d.title);
    say('4 back ' + (link(d, function (a) { return a.textContent == 'All reports'; }) ? 'yes' : 'no'));
    f.src = 'runs/b200-fa4-curve.svg'; },
  function (d) { var loss = d.querySelector('path.loss');
    say('5 ' + d.querySelector('title').textContent + ' loss ' + (loss.getTotalLength() > 500 ? 'drawn' : 'short') +
        ' evals ' + d.querySelectorAll('g.eval').length); say('done'); }
];
f.onload = function () { try { plan[step++](f.contentDocument); } catch (e) { say('error at ' + step + ': ' + e); } };
f.src = 'index.html';
</script></body></html>
HTML
clicks=$(browse "file://$PWD/out/click.html" --allow-file-access-from-files --virtual-time-budget=10000 |
	sed -n '/<pre id="r">/,/<\/pre>/p' | sed 's/<[^>]*>//g')
expect_eq report-html-7 "clicked: index → day → run page (curve loaded) → parent, and the curve drawn" \
"1 runledger reports
2 runledger daily digest 2026-03-16
2 link runs/b200-fa4.html
3 runledger run b200-fa4
3 curve b200-fa4-curve.svg 640x400
4 runledger run b200-qk
4 back yes
5 Training curve of b200-fa4 loss drawn evals 1
done" "$clicks"

# The campaign report's compare view in the browser: the side-by-side table
# (a column per run), the overlaid curves SVG loaded at its size with a
# line per run that has a curve, and a run's link below the table followed
# to its page.
printf '%s\n' '{"name":"b200-curves","metric":"val_bpb","direction":"min","hardware":"B200","search_space":["model.*","impl.*"]}' >bc.json
"$LEDGER" --db l.db campaign add bc.json >/dev/null 2>&1
"$LEDGER" --db l.db campaign assign b200-curves b200-qk b200-fa4 b200-nan b200-base >/dev/null 2>&1
"$REPORT" --db l.db campaign --campaign b200-curves --out out --no-charts >/dev/null 2>&1
cat >out/camp.html <<'HTML'
<!DOCTYPE html><html><body><pre id="r"></pre><iframe id="f" width="800" height="800"></iframe><script>
var f = document.getElementById('f'), step = 0;
function say(s) { document.getElementById('r').textContent += s + "\n"; }
function heading(d, text) { return Array.prototype.find.call(d.querySelectorAll('h2'), function (x) { return x.textContent == text; }); }
var plan = [
  function (d) { say('1 ' + d.title);
    var t = heading(d, 'Side by side'), img = null;
    while (t && t.tagName != 'TABLE') t = t.nextElementSibling;
    say('1 table ' + Array.prototype.map.call(t.querySelectorAll('thead th'), function (x) { return x.textContent; }).join(','));
    img = d.querySelector('img[src$="-curves.svg"]');
    say('1 curves ' + img.getAttribute('src') + ' ' + (img.complete ? img.naturalWidth + 'x' + img.naturalHeight : 'not loaded'));
    var p = Array.prototype.find.call(d.querySelectorAll('p'), function (x) { return x.textContent.indexOf('Run pages:') == 0; });
    var a = Array.prototype.find.call(p.querySelectorAll('a'), function (x) { return x.textContent == 'b200-fa4'; });
    say('1 link ' + a.getAttribute('href')); a.click(); },
  function (d) { say('2 ' + d.title + ' curve ' + (d.querySelector('img[src$="-curve.svg"]') ? 'yes' : 'no'));
    f.src = 'charts/campaign-b200-curves-curves.svg'; },
  function (d) { say('3 ' + d.querySelector('text').textContent + ', lines ' + d.querySelectorAll('polyline').length); say('done'); }
];
f.onload = function () { try { plan[step++](f.contentDocument); } catch (e) { say('error at ' + step + ': ' + e); } };
f.src = 'campaign-b200-curves.html';
</script></body></html>
HTML
camp=$(browse "file://$PWD/out/camp.html" --allow-file-access-from-files --virtual-time-budget=10000 |
	sed -n '/<pre id="r">/,/<\/pre>/p' | sed 's/<[^>]*>//g')
lines=$(grep -c '<polyline' out/charts/campaign-b200-curves-curves.svg)
expect_eq report-html-9 "campaign compare view: the table, the curves loaded, a run's link followed" \
"1 runledger campaign b200-curves
1 table section,key,b200-base,b200-qk,b200-fa4,b200-nan
1 curves charts/campaign-b200-curves-curves.svg 720x456
1 link runs/b200-fa4.html
2 runledger run b200-fa4 curve yes
3 Training loss, the 4 most recent runs of b200-curves, lines $lines
done" "$camp"
expect_eq report-html-9.1 "(a line for each of the three runs with a curve; b200-base has none)" 3 "$lines"

if [ -z "$have_gnuplot" ]; then
	ok report-html-5 "# SKIP gnuplot not installed: no chart images to load"
	exit 0
fi

# Load every image the page references, from a probe page beside it (same
# directory, so the same relative paths), and report their natural sizes.
srcs=$(printf '%s' "$dom" | grep -o '<img src="[^"]*"' | sed 's/<img src="//; s/"$//')
srcs="$srcs $(printf '%s' "$dom" | grep -o 'href="charts/[^"]*\.png"' | sed 's/href="//; s/"$//')"
{
	echo '<!DOCTYPE html><html><body><pre id="r"></pre><script>'
	for s in $srcs; do
		printf '(function(s){var i=new Image();i.onload=function(){document.getElementById("r").textContent+="loaded "+s+" "+i.naturalWidth+"x"+i.naturalHeight+"\\n"};i.onerror=function(){document.getElementById("r").textContent+="failed "+s+"\\n"};i.src=s})("%s");\n' "$s"
	done
	echo '</script></body></html>'
} >out/probe.html
probe=$(browse "file://$PWD/out/probe.html" --virtual-time-budget=5000)
expect_eq report-html-5 "svg and png load at 900x540" "loaded charts/2026-03-16-frontier.png 900x540
loaded charts/2026-03-16-frontier.svg 900x540" "$(printf '%s' "$probe" | grep -oE '(loaded|failed) charts/[^ <"]+( [0-9]+x[0-9]+)?' | sort)"

# The chart (issue 13): a title, the reported day shaded, a colour per
# hardware class that does not depend on which classes a window holds, the
# key below the plot, and each run's point a <title> (id, value,
# description) that a browser shows on hover, with no script.
svg=$(cat out/charts/2026-03-16-frontier.svg)
gp=$(cat out/charts/2026-03-16-frontier.gp)
expect_match report-html-8.1 "a title naming the day" "$gp" "^set title 'Frontier timeline to 2026-03-16 \(the day shaded\): val_bpb by hardware class'$"
expect_match report-html-8.2 "the day shaded from its midnight to the next" "$gp" \
	"^set object 1 rect from first '$(date -u -d 2026-03-16 +%s)', graph 0 to first '$(date -u -d 2026-03-17 +%s)', graph 1 behind"
expect_match report-html-8.3 "the key below the plot" "$gp" '^set key below center horizontal'
window=$(sql l.db "SELECT count(*) FROM runs WHERE t_finished < $(date -u -d 2026-03-17 +%s)")
expect_eq report-html-8.4 "one tooltip per run of the window: valid, off the scale, failed" "$window" \
	"$(printf '%s\n' "$svg" | grep -o '<g><title>' | wc -l)"
expect_match report-html-8.5 "a tooltip: id, value, description" "$svg" '<g><title>b200-fa4: val_bpb 0\.9300 — FA4 CUTLASS custom op \+ depth 12</title>'
expect_match report-html-8.6 "a description's markup stays text in it" "$svg" '<title>b200-xss: val_bpb 0\.9370 — &lt;script>'
expect_match report-html-8.6b "a failed run's tooltip has its status" "$svg" '<g><title>b200-nan: nan — matrix LR 0\.4</title>'
expect_no_match report-html-8.7 "no script handlers left" "$svg" 'onmousemove|showHypertext'
"$REPORT" --db l.db daily --date 2026-03-14 --out out >/dev/null 2>&1
b200() { sed -n "s/.*runs-\([0-9]\)\.dat.* lc rgb '\(#[0-9a-f]*\)'.*/\1 \2/p" "$1" | while read -r g c; do
	[ "$(head -n 1 "out/charts/$(basename "$1" .gp)-runs-$g.dat")" = '"B200"' ] && echo "$c"; done; }
expect_eq report-html-8.8 "B200 has one colour on days with other classes (2026-03-14: 3 classes, 03-16: 5)" \
	"#1f77b4 #1f77b4" "$(b200 out/charts/2026-03-14-frontier.gp) $(b200 out/charts/2026-03-16-frontier.gp)"

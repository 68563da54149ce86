#!/usr/bin/env python3
"""seeds.py: write the seed corpus fuzz/corpus/NAME/ from tests/fixtures
and templates/, plus the hand-made edge cases below. Run from the top of
the tree: python3 fuzz/seeds.py. Files are named by what they hold
(fixture-FILE[-N], edge-WHAT) and kept small: a long run.log step stream is
cut to a few KB, since the fuzzer gets nowhere new from the 900th step line.
The description seeds come only from the train split of the infer corpus
(tests/fixtures/infer/README.md: the heldout files stay unread).
Inputs the fuzzers found are copied into fuzz/corpus/NAME/ by hand
(docs/fuzzing.md); this script adds to the directories, never empties them."""
import glob, os, re

FX = "tests/fixtures"
OUT = "fuzz/corpus"
MAX_SEED = 8192

def put(name, fname, data):
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, fname), "wb") as f:
        f.write(data)

def read(path):
    with open(path, "rb") as f:
        return f.read()

def jsonl_lines(paths):
    seen = set()
    for p in paths:
        for i, line in enumerate(read(p).splitlines(), 1):
            if line.strip() and line not in seen:
                seen.add(line)
                yield "fixture-%s-%d" % (os.path.basename(p), i), line

def shorten_log(data, keep=2000):
    """A run.log's lines, each '\r' step stream cut to its first and last
    keep bytes (so the summary and the tail survive)."""
    out = []
    for line in data.split(b"\n"):
        if len(line) > 2 * keep:
            line = line[:keep] + b"\r" + line[-keep:]
        out.append(line)
    return b"\n".join(out)

def runrec_and_json():
    recs = sorted(glob.glob(FX + "/*/runs.jsonl")) + [FX + "/audit/seed.jsonl"]
    for name, line in jsonl_lines(recs):
        put("runrec", name, line)
    put("runrec", "fixture-single.json", read(FX + "/ingest/single.json"))
    edges = {
        "edge-minimal": '{"schema":"runrec/1","status":"ok"}',
        "edge-nulls": '{"schema":"runrec/1","status":"crash","metrics":{"val_bpb":null},"failure":{"phase":"data","message":"x"}}',
        "edge-numbers": '{"a":0,"b":-0,"c":-0.0,"d":1e308,"e":1e-400,"f":9223372036854775807,"g":-9223372036854775808,"h":1.5E+3,"i":0.1}',
        "edge-overflow-int": '{"a":9223372036854775808}',
        "edge-overflow-real": '{"a":1e400}',
        "edge-long-number": '{"a":1.00000000000000000000000000000000000000000000000000000000000000000001}',
        "edge-escapes": '{"s":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\\u001f"}',
        "edge-lone-surrogate": '{"s":"\\ud800"}',
        "edge-nul-escape": '{"s":"a\\u0000b"}',
        "edge-utf8": '{"s":"h\u00e9 \u4e2d \U0001f600"}',
        "edge-duplicate": '{"a":1,"a":2}',
        "edge-array-top": '[1,2,{"a":[]}]',
        "edge-trailing": '{"a":1} x',
        "edge-truex": '{"a":truex}',
        "edge-empty": '{}',
        "edge-ws": ' \t\r\n{ "a" : [ 1 , 2 ] }\n',
        "edge-depth-64": '{"a":' * 63 + '{}' + '}' * 63,
        "edge-depth-65": '{"a":' * 64 + '{}' + '}' * 64,
        "edge-bom": '\ufeff{"a":1}',
        "edge-config": '{"schema":"runrec/1","status":"ok","config":{"model.depth":8,"optim.lr":0.04,"x":"y"},"parent":"r-1"}',
    }
    for k, v in edges.items():
        put("runrec", k, v)
    put("runrec", "edge-raw-nul", b'{"a":"x\x00"}')
    put("runrec", "edge-bad-utf8", b'{"a":"\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80"}')

def paths():
    """Whole JSONL files (cut at a line end), so that the speed paths'
    harness sees parent chains, repeats and bad lines in one input."""
    for p in sorted(glob.glob(FX + "/*/runs.jsonl")):
        data = read(p)[:MAX_SEED]
        put("paths", "fixture-%s-%s" % (os.path.basename(os.path.dirname(p)), os.path.basename(p)),
            data[:data.rfind(b"\n") + 1] if len(data) == MAX_SEED else data)
    put("paths", "edge-bad-lines", '{"schema":"runrec/1","status":"ok","run_id":"a"}\n'
        '{"schema":"runrec/1",\n\n[1]\n{"a":1,"a":2}\n'
        '{"schema":"runrec/1","status":"ok","run_id":"a"}\n'
        '{"schema":"runrec/1","status":"ok","run_id":"a","agent":"x"}\n')

def tsv():
    for p in sorted(glob.glob(FX + "/ingest/results*.tsv")) + [FX + "/audit/seed-results.tsv"]:
        put("tsv", "fixture-" + os.path.basename(p), read(p)[:MAX_SEED])
    h = "commit\tval_bpb\tmemory_gb\tstatus\tdescription\n"
    edges = {
        "edge-bom": "\ufeff" + h + "a1\t0.99\t44.0\tkeep\tbaseline\n",
        "edge-dup-column": "commit\tval_bpb\tval_bpb\tstatus\tdescription\na1\t0.99\t0.98\tkeep\tbaseline\n",
        "edge-nan": h + "a1\tnan\t44.0\tkeep\tbaseline\na2\t-1\t44.0\tkeep\tx\na3\t1e-400\t1\tdiscard\ty\na4\t9.5\t1\tkeep\tz\n",
        "edge-crlf": h.replace("\n", "\r\n") + "a1\t0.99\t44.0\tkeep\tbaseline\r\n",
        "edge-ragged": h + "a1\t0.99\n\t\t\t\t\t\t\t\na2\t0.98\t1\tKEEP\tdepth 8 to 9\textra\n",
        "edge-quotes": h + 'a1\t"0.99"\t44.0\tkeep\t"quoted, desc"\n',
        "edge-wide": "commit\tval_bpb\tmemory_gb\tstatus\tdescription\tmfu\tnum_steps\tgpu\tagent\tstarted_at\tfinished_at\n"
                     "a1\t0.99\t44\tkeep\tbaseline\t40.1\t953\tNVIDIA H100 80GB HBM3\tforge\t2026-03-16T00:00:00Z\t2026-03-16T00:05:00Z\n",
        "edge-header-only": h,
        "edge-repeat": h + "a1\t0.99\t44.0\tkeep\tbaseline\na2\t0.99\t44.0\tdiscard\tx\na2\t0.99\t44.0\tdiscard\tx\n",
    }
    for k, v in edges.items():
        put("tsv", k, v)

def runlog():
    for p in sorted(glob.glob(FX + "/ingest/*.log")):
        put("runlog", "fixture-" + os.path.basename(p), shorten_log(read(p))[:16384])
    edges = {
        "edge-step-overflow": "step 00001 (0.1%) | loss: 1.0\rstep 18446744073709551617 (100.0%) | loss: 1.0\n",
        "edge-summary-huge": "---\nval_bpb: 1e999\nnum_steps: 18446744073709551617\ndepth: 9223372036854775808\n",
        "edge-summary-weird": "---\n: 1\n\xff\xfe: 2\nval_bpb:   \nkey:value:more\n",
        "edge-fail": "FAIL\n",
        "edge-traceback": "Traceback (most recent call last):\n  File \"train.py\", line 1, in <module>\n    loss.backward()\ntorch.OutOfMemoryError: CUDA out of memory.\n",
        "edge-cr-only": "\r\r\r---\r",
    }
    for k, v in edges.items():
        put("runlog", k, v)
    put("runlog", "edge-binary", bytes(range(256)))

def arh():
    put("arh", "fixture-arh-result.json", read(FX + "/ingest/arh-result.json"))
    put("arh", "fixture-arh-results.jsonl", read(FX + "/ingest/arh-results.jsonl"))
    for name, line in jsonl_lines([FX + "/ingest/arh-results.jsonl"]):
        put("arh", name, line)
    edges = {
        "edge-crash": '{"agent_id":"a","val_bpb":0,"memory_gb":0,"status":"crash","commit":"x","description":"oom"}',
        "edge-epoch": '{"agent_id":"a","val_bpb":0.99,"status":"KEEP","completed_at":1773619200.5,"gpu":"H100"}',
        "edge-types": '{"agent_id":1,"val_bpb":"0.99","status":null,"completed_at":[],"vram_total_gb":-1,"extra":1e308}',
        "edge-unknown-status": '{"status":"maybe"}',
        "edge-jsonl-bad": '{"status":"keep","val_bpb":0.9}\n\n{"status":\n[1]\n',
    }
    for k, v in edges.items():
        put("arh", k, v)

def template():
    for p in sorted(glob.glob("templates/*.md")):
        put("template", "templates-" + os.path.basename(p), read(p))
    edges = {
        "edge-vars": "name=value\nflag=\nlist=a\n%%\n{{name}} {{#flag}}on{{/flag}}{{^flag}}off{{/flag}}\n{{#list}}\n- {{list}}\n{{/list}}\n",
        "edge-standalone": "  {{#title}}  \r\nx\n\t{{/title}}\n{{! comment }}\n",
        "edge-unclosed": "{{#title}}never closed\n",
        "edge-wrong-close": "{{#title}}{{/date}}",
        "edge-bad-name": "{{ bad name }} {{}} {{#}} {{", 
        "edge-unknown": "{{nope}}",
        "edge-nested": "{{#title}}{{#empty}}a{{/empty}}{{^empty}}{{#summary}}b{{/summary}}{{/empty}}{{/title}}",
        "edge-plain": "no tags at all\n}} {",
    }
    for k, v in edges.items():
        put("template", k, v)

def infer():
    seen = set()
    n = 0
    for p in sorted(glob.glob(FX + "/infer/*.tsv")):
        text = read(p).decode("utf-8")
        if not re.search(r"^# split: train\s*$", text, re.M):
            continue  # heldout: not opened further
        for line in text.splitlines():
            if line.startswith("#") or "\t" not in line:
                continue
            desc = line.split("\t", 1)[0]
            if desc and desc not in seen:
                seen.add(desc)
                n += 1
                put("infer", "fixture-%s-%d" % (os.path.basename(p)[:-4], n), desc)
    edges = {
        "edge-arrows": "depth 8 to 9 + LR 0.04 -> 0.05 & warmdown 0.5→0.6; batch 32 => 64",
        "edge-numbers": "lr 1e-400 to 1e400, depth 18446744073709551617 to -0",
        "edge-unicode": "emb\u00e9dding LR 0.6 to 0.8 \U0001f600 (\u4e2d)",
        "edge-remarks": "baseline (was: depth 8) [note] {x}",
        "edge-empty-parts": " +  + ;;; & ",
    }
    for k, v in edges.items():
        put("infer", k, v)

runrec_and_json(); paths(); tsv(); runlog(); arh(); template(); infer()

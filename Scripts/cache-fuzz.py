#!/usr/bin/env python3
"""Random edits to a large generated site (Scripts/corpora.sh, ../shared/bench/gen_corpus.py),
each built through the cache and without it, the outputs compared file by file; stops at the
first difference. The Swift tests do the same on the sample site (CacheDifferentialTests);
this reaches what only large sites take (over 1,000 pages: fingerprints on both cores).

usage: Scripts/cache-fuzz.py SITEGEN SITE ROUNDS SEED [WORK]
  e.g. Scripts/cache-fuzz.py .build/release/sitegen /tmp/corpus 40 1 /dev/shm/cache-fuzz
"""
import os, random, re, subprocess, sys, shutil, hashlib
B, SITE, ROUNDS, SEED = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
W = sys.argv[5] if len(sys.argv) > 5 else "/tmp/sitegen-cache-fuzz"; T = "2027-06-30T15:00"
rnd = random.Random(SEED)
shutil.rmtree(W, ignore_errors=True); os.makedirs(W)
shutil.copytree(SITE, W + "/site")
S = W + "/site"; A = S + "/Content/articles"
def build(out, cache):
    args = [B, "build", "--source", S, "--output", out, "--today", T, "-q"] + (["--cache-dir", cache] if cache else ["--no-cache"])
    r = subprocess.run(args + (["--drafts"] if drafts else []), capture_output=True, text=True)
    return r.returncode, r.stderr
def tree(root):
    h = {}
    for d, _, fs in os.walk(root):
        for f in fs:
            p = os.path.join(d, f); h[os.path.relpath(p, root)] = hashlib.md5(open(p, "rb").read()).hexdigest()
    return h
drafts = False
meals = ["Breakfast", "Lunch", "Dinner", "Supper", "Afternoon tea", "Brunch"]
tags = ["cantonese", "tea", "bakery", "noodles", "dim sum", "late night", "vegan", "spicy"]
rests = [("Ho Lee Dairy (kiosk)", "2/F, 320 Portland Street, Sai Kung", "22.381643742", "114.268772880"), ("New Place", "1 New St", None, None), ("42", None, None, None)]
def files(): return sorted(os.listdir(A))
def edit():
    f = rnd.choice(files()); p = A + "/" + f; t = open(p).read()
    k = rnd.randrange(10)
    if k == 0: t = re.sub(r"(?m)^title: .*$", 'title: "Renamed %d <&>"' % rnd.randrange(99), t, 1); what = "title"
    elif k == 1: t = re.sub(r"(?m)^meal: .*$", "meal: " + rnd.choice(meals), t, 1); what = "meal"
    elif k == 2: t = re.sub(r"(?m)^tags: .*$", "tags: [" + ", ".join('"%s"' % x for x in rnd.sample(tags, rnd.randrange(4))) + "]", t, 1); what = "tags"
    elif k == 3:
        n, a, la, lo = rnd.choice(rests)
        block = "restaurant:\n  name: \"%s\"\n" % n + ("  address: \"%s\"\n" % a if a else "") + ("  lat: %s\n  lon: %s\n" % (la, lo) if la else "")
        # Half the time another article's restaurant, which has a page already.
        other = re.search(r"(?ms)^restaurant:\n(  .*?\n)+", open(A + "/" + rnd.choice(files())).read())
        if other and rnd.randrange(2): block = other.group(0)
        t = re.sub(r"(?ms)^restaurant:\n(  .*?\n)+", lambda _: block, t, 1); what = "restaurant"
    elif k == 4: t = re.sub(r"(?m)^date: .*$", "date: %d-%02d-%02d" % (rnd.choice([2013, 2020, 2027]), rnd.randint(1, 12), rnd.randint(1, 28)), t, 1); what = "date"
    elif k == 5: t = t.replace("\ntitle:", "\ndraft: true\ntitle:", 1) if "\ndraft: true" not in t else t.replace("\ndraft: true", "", 1); what = "draft"
    elif k == 6: t = t + "\nAnother paragraph %d.\n" % rnd.randrange(999); what = "story"
    elif k == 7:
        g = "2027-06-29-new-%d.md" % rnd.randrange(10**6); open(A + "/" + g, "w").write(t.replace("\ntitle:", "\nslug: new-%d\ntitle:" % rnd.randrange(10**6), 1)); return "new " + g
    elif k == 8 and len(files()) > 10: os.remove(p); return "deleted " + f
    else: t = re.sub(r"(?m)^price: .*$", "price: %d" % rnd.randrange(300), t, 1); what = "price"
    # Half the time saved as many editors save, by a rename over the old file.
    if rnd.randrange(2): open(p, "w").write(t); return what + " " + f
    open(p + ".new", "w").write(t); os.replace(p + ".new", p); return what + " (renamed) " + f
build(W + "/oc", W + "/c")
for r in range(1, ROUNDS + 1):
    said = [edit() for _ in range(rnd.randint(1, 3))]
    if rnd.randrange(10) == 0: drafts = not drafts; said.append("drafts %s" % drafts)
    rc1, e1 = build(W + "/oc", W + "/c"); shutil.rmtree(W + "/op", ignore_errors=True); rc2, e2 = build(W + "/op", None)
    a, b = tree(W + "/oc"), tree(W + "/op")
    ok = rc1 == rc2 and (rc1 != 0 or a == b)
    print(r, "ok" if ok else "DIFFER", rc1, rc2, "; ".join(said), flush=True)
    if not ok:
        print(" ", sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))[:8], e1[-300:], e2[-300:])
        sys.exit(1)

#!/usr/bin/env python3
"""The version is set once, in bloomfilter.control's default_version; every
other place that states it must agree, and released install scripts are
never edited.  Checks, each printed "ok - ..." or "FAILED - ...":

  - META.json has the fields of the PGXN meta spec 1.0.0 with valid values,
    and its versions are the control file's (as semver: 1.1 -> 1.1.0);
  - debian/changelog's newest entry is the control file's version;
  - every script in pg/released.sha256 still has its released checksum,
    and every install script in pg/ is either released or the upgrade to
    the control file's version;
  - the blocks generated from tools/overloads.py's type list (the overloads
    of the upgrade script, the tests' sample values) are what the list gives,
    and a type lands in the script of the version it is tagged with, never
    in a released one.

Ends with "versions: N passed, M failed"; exit 1 on any failure."""
import glob
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok - {name}")
    else:
        failed += 1
        print(f"FAILED - {name}" + (f": {detail}" if detail else ""))


control = open("bloomfilter.control").read()
m = re.search(r"^default_version\s*=\s*'([^']*)'", control, re.M)
version = m.group(1) if m else None
check("bloomfilter.control sets default_version", version is not None)
version = version or "?"
semver = version + ".0" if re.fullmatch(r"\d+\.\d+", version) else version

# ---- PGXN META.json (https://pgxn.org/spec/, meta-spec 1.0.0) ----
SEMVER = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+)?$")
LICENSES = {"agpl_3", "apache_1_1", "apache_2_0", "artistic_1", "artistic_2", "bsd", "freebsd",
            "gfdl_1_2", "gfdl_1_3", "gpl_1", "gpl_2", "gpl_3", "lgpl_2_1", "lgpl_3_0", "mit",
            "mozilla_1_0", "mozilla_1_1", "openssl", "perl_5", "postgresql", "qpl_1_0", "ssleay",
            "sun", "zlib", "open_source", "restricted", "unrestricted", "unknown"}
PHASES = {"configure", "build", "test", "runtime", "develop"}
RELATIONS = {"requires", "recommends", "suggests", "conflicts"}


def meta_problems(meta):
    problems = []
    for key in ("name", "abstract", "version", "maintainer", "license", "provides", "meta-spec"):
        if key not in meta:
            problems.append(f"required field {key} is missing")
    if not re.fullmatch(r"[^/\\\s]{2,}", str(meta.get("name", ""))):
        problems.append("name must be 2+ characters without slash, backslash or space")
    for key in ("abstract", "description", "generated_by"):
        if key in meta and not (isinstance(meta[key], str) and meta[key].strip()):
            problems.append(f"{key} must be a non-empty string")
    if not SEMVER.match(str(meta.get("version", ""))):
        problems.append(f"version {meta.get('version')!r} is not a semantic version")
    maint = meta.get("maintainer")
    if not (isinstance(maint, str) or (isinstance(maint, list) and maint and
                                       all(isinstance(x, str) for x in maint))):
        problems.append("maintainer must be a string or a non-empty list of strings")
    lic = meta.get("license")
    lic_names = [lic] if isinstance(lic, str) else list(lic) if isinstance(lic, (list, dict)) else []
    if not lic_names or (not isinstance(lic, dict) and any(x not in LICENSES for x in lic_names)):
        problems.append(f"license {lic!r} is not a meta-spec license string")
    provides = meta.get("provides")
    if not isinstance(provides, dict) or not provides:
        problems.append("provides must name at least one extension")
    else:
        for ext, p in provides.items():
            if not isinstance(p, dict) or "file" not in p or "version" not in p:
                problems.append(f"provides.{ext} needs file and version")
                continue
            if not SEMVER.match(str(p["version"])):
                problems.append(f"provides.{ext}.version is not a semantic version")
            for key in ("file", "docfile"):
                if key in p and not os.path.isfile(p[key]):
                    problems.append(f"provides.{ext}.{key} {p[key]} does not exist")
            unknown = set(p) - {"file", "version", "abstract", "docfile"} - {k for k in p if k.lower().startswith("x_")}
            if unknown:
                problems.append(f"provides.{ext} has unknown fields {sorted(unknown)}")
    for phase, rels in meta.get("prereqs", {}).items():
        if phase not in PHASES:
            problems.append(f"prereqs phase {phase!r} is not one of {sorted(PHASES)}")
            continue
        for rel, reqs in rels.items():
            if rel not in RELATIONS:
                problems.append(f"prereqs.{phase}.{rel} is not one of {sorted(RELATIONS)}")
                continue
            for name, ver in reqs.items():
                if not (ver == 0 or SEMVER.match(str(ver)) or re.match(r"^[<>=!]", str(ver))):
                    problems.append(f"prereqs.{phase}.{rel}.{name} {ver!r} is not a version")
    if meta.get("release_status", "stable") not in ("stable", "testing", "unstable"):
        problems.append("release_status must be stable, testing or unstable")
    tags = meta.get("tags", [])
    if not (isinstance(tags, list) and all(isinstance(t, str) and 0 < len(t) < 256 for t in tags)):
        problems.append("tags must be a list of short strings")
    spec = meta.get("meta-spec", {})
    if not (isinstance(spec, dict) and spec.get("version") == "1.0.0"):
        problems.append("meta-spec.version must be 1.0.0")
    return problems


try:
    meta = json.load(open("META.json"))
except (OSError, ValueError) as e:
    meta = None
    check("META.json is valid JSON", False, str(e))
if meta is not None:
    problems = meta_problems(meta)
    check("META.json has the PGXN meta spec 1.0.0 fields", not problems, "; ".join(problems))
    versions = {"version": meta.get("version")}
    versions.update({f"provides.{e}.version": p.get("version")
                     for e, p in meta.get("provides", {}).items() if isinstance(p, dict)})
    wrong = {k: v for k, v in versions.items() if v != semver}
    check(f"META.json versions are the control file's {version} ({semver})", not wrong, str(wrong))

# ---- Debian ----
try:
    deb = subprocess.run(["dpkg-parsechangelog", "-S", "Version"], capture_output=True,
                         text=True, check=True).stdout.strip()
except (OSError, subprocess.CalledProcessError) as e:
    deb = f"unreadable ({e})"
check(f"debian/changelog is at the control file's version {version}",
      deb.rsplit("-", 1)[0] == version, f"debian/changelog says {deb}")

# ---- released scripts ----
released = {}
for line in open("pg/released.sha256"):
    digest, path = line.split()
    released[path] = digest
for path, digest in sorted(released.items()):
    actual = hashlib.sha256(open(path, "rb").read()).hexdigest() if os.path.exists(path) else "missing"
    check(f"released {path} unchanged", actual == digest,
          f"sha256 {actual}, released {digest}: released scripts are never edited; "
          "add an upgrade script instead")
scripts = sorted(glob.glob("pg/bloomfilter--*.sql"))
unreleased = [s for s in scripts if s not in released]
expected_new = [s for s in unreleased if re.fullmatch(r"pg/bloomfilter--[\d.]+--" + re.escape(version) + r"\.sql", s)]
check(f"every install script is released or an upgrade to {version}",
      unreleased == expected_new and len(expected_new) <= 1, f"unreleased: {unreleased}")

# ---- generated from the one type list ----
gen = subprocess.run([sys.executable, "tools/overloads.py", "--check"], capture_output=True, text=True)
check("the generated overloads and samples match tools/overloads.py's list", gen.returncode == 0,
      (gen.stdout + gen.stderr).strip())


def overloads_module():
    spec = importlib.util.spec_from_file_location("overloads", "tools/overloads.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def refusal(render, *args):
    """The message render(*args) refuses with, or None when it renders."""
    try:
        render(*args)
    except SystemExit as e:
        return str(e)
    return None


# A type carries the version that added it and lands in that version's
# upgrade script alone; a released script is never what it lands in.
ov = overloads_module()
released_now = ov.released_scripts()
dev_script = ov.version_script(version)
new_type = ("bloomtest_type", "{g}::text::bloomtest_type")
texts = ov.render(ov.TYPES + [new_type + (version,)], released_now)
changed = sorted(path for path, (old, new) in texts.items() if old != new)
check(f"a type tagged {version} lands in {dev_script} alone", changed == [dev_script] and
      f"bloom_contains(filter bloom, value {new_type[0]})" in texts[dev_script][1] and
      f"OPERATOR 1 @> (bloom, {new_type[0]})" in texts[dev_script][1], f"changed: {changed}")
check(f"a type tagged {version} is refused once {dev_script} is released",
      refusal(ov.render, ov.TYPES + [new_type + (version,)], released_now | {dev_script}) is not None,
      "it would land in a released script")
check(f"the list as it is leaves {dev_script} as it is, released or not",
      refusal(ov.render, ov.TYPES, released_now | {dev_script}) is None,
      refusal(ov.render, ov.TYPES, released_now | {dev_script}) or "")
for path in sorted(released_now):
    tag = re.fullmatch(r"pg/bloomfilter--(?:[\d.]+--)?([\d.]+)\.sql", path).group(1)
    check(f"a type tagged {tag} is refused ({path} is released)",
          refusal(ov.render, ov.TYPES + [new_type + (tag,)], released_now) is not None,
          "it would land in a released script")

# ---- supported PostgreSQL majors: pg/majors is the one list ----
majors = [int(line.split("#")[0]) for line in open("pg/majors") if line.split("#")[0].strip()]
check("pg/majors lists the supported majors, oldest first", majors and majors == sorted(set(majors)), str(majors))
if majors:
    want_range = f">= {majors[0]}.0.0, < {majors[-1] + 1}.0.0"
    if meta is not None:
        ranges = {f"prereqs.{phase}.requires.PostgreSQL": meta.get("prereqs", {}).get(phase, {}).get("requires", {}).get("PostgreSQL")
                  for phase in ("build", "runtime")}
        wrong = {k: v for k, v in ranges.items() if v != want_range}
        check(f"META.json requires PostgreSQL {want_range} (pg/majors)", not wrong, str(wrong))
    control_pkgs = re.findall(r"^Package: postgresql-(\d+)-bloomfilter$", open("debian/control").read(), re.M)
    check(f"debian/control has one package per major of pg/majors",
          [int(m) for m in control_pkgs] == majors, f"debian/control: {control_pkgs}")
    pgversions = open("debian/pgversions").read().split()
    check("debian/pgversions starts at the oldest major of pg/majors",
          pgversions == [f"{majors[0]}+"], f"debian/pgversions: {pgversions}")
    spoken = ", ".join(str(m) for m in majors[:-1]) + f" and {majors[-1]}"
    for path in ("README.md", "bloomfilter.control"):
        check(f"{path} says which majors are supported (\"PostgreSQL {spoken}\")",
              f"PostgreSQL {spoken}" in open(path).read())

print(f"versions: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)

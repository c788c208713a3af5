"""What the comparison scripts (tools/stockfish-compare, tools/bullet-compare)
share: the CPU's description and the dated record file each run writes
(benchmarks/record/<cpu>/<UTC date>-<commit>[-<n>].md; see
benchmarks/record/README.md)."""

import datetime
import os
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def cpu_info():
    """The first processor's fields in /proc/cpuinfo (empty if unreadable)."""
    info = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if not line.strip():
                break
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return info


def cpu_slug(info):
    """A directory name for the CPU: its model name in lower case without
    (R), (TM), "CPU" and the clock, words joined by '-', then the family and
    model (VMs often report a generic name, e.g. "AMD EPYC Processor")."""
    name = info.get("model name") or info.get("Model") or "unknown-cpu"
    name = re.sub(r"\((?:r|tm)\)", " ", name, flags=re.I)
    name = re.sub(r"@.*$", " ", name)
    name = re.sub(r"\bcpu\b", " ", name, flags=re.I)
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unknown-cpu"
    if info.get("cpu family") and info.get("model"):
        slug += f"-f{info['cpu family']}-m{info['model']}"
    return slug


def cpu_lines(info):
    """Markdown lines describing the CPU, for a record."""
    flags = set(info.get("flags", "").split())
    simd = [f for f in ["avx2", "bmi2", "avx_vnni", "avx512f", "avx512bw", "avx512vl", "avx512_vnni",
                        "avx512_vbmi2"] if f in flags]
    l1d = "unknown"
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            if (index / "level").read_text().strip() == "1" and (index / "type").read_text().strip() == "Data":
                l1d = (index / "size").read_text().strip()
        except OSError:
            pass
    return [f"- model name: {info.get('model name', 'unknown')}",
            f"- vendor {info.get('vendor_id', '?')}, family {info.get('cpu family', '?')}, "
            f"model {info.get('model', '?')}, stepping {info.get('stepping', '?')}; "
            f"L1 data cache of cpu0: {l1d}; logical CPUs: {os.cpu_count()}",
            f"- SIMD flags: {' '.join(simd) or 'none of avx2/avx512'}",
            f"- kernel: {os.uname().sysname} {os.uname().release} {os.uname().machine}"]


def record_path(record_dir, commit):
    """benchmarks/record/<cpu>/<UTC date>-<commit>.md, or with -2, -3, ...
    when that run's file exists already."""
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    base = f"{date}-{re.sub(r'[^A-Za-z0-9._-]+', '_', commit)}"
    path = record_dir / f"{base}.md"
    n = 2
    while path.exists():
        path = record_dir / f"{base}-{n}.md"
        n += 1
    return path


def write_record(record_dir, commit, title, header, report, script):
    """Writes one run's record: a header (command, CPU, both programs'
    versions and builds), then the report as printed, naming `script` (the
    comparison script) as its writer. Never overwrites; the path written."""
    record_dir.mkdir(parents=True, exist_ok=True)
    text = "\n".join([f"# {title}", "",
                       f"Written by `{Path(script).resolve().relative_to(REPO)}` at the end of this run; "
                       "not edited by hand (see `benchmarks/record/README.md`).", ""] + header + ["", "## Report", ""] + report)
    for _ in range(100):
        path = record_path(record_dir, commit)
        try:
            with open(path, "x") as f:
                f.write(text + "\n")
            return path
        except FileExistsError:
            continue
    raise OSError(f"could not create a record file in {record_dir}")

"""``make bench``: run every benchmark module and print one JSON object."""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys

import benchmarks


def main(argv: list[str]) -> int:
    wanted = set(argv)
    figures: dict[str, object] = {}
    for module_info in sorted(pkgutil.iter_modules(benchmarks.__path__)):
        name = module_info.name
        if not name.startswith("bench_"):
            continue
        if wanted and name.removeprefix("bench_") not in wanted:
            continue
        module = importlib.import_module(f"benchmarks.{name}")
        print(f"running {name} ...", file=sys.stderr)
        figures.update(module.run())
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

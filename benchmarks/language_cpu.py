"""The cold result page and steps page's CPU in each language, against English.

Each run is a fresh app (empty store, no skeletons yet) asked for every puzzle of a sample once,
in one language (its ``Accept-Language``), after one warm-up request; the figure is
``time.process_time`` per request. Languages alternate their order round by round, and the
median of the rounds is reported with each round's figure. Figures go in benchmarks/RESULTS.md.

    python -m benchmarks.language_cpu                      # en, de, ja; speed tricks on
    python -m benchmarks.language_cpu --plain --rounds 3   # SPEEDUPS off: every page by Jinja
"""

from __future__ import annotations

import argparse
import statistics
import time

from sudoku_web import create_app

from .data_files import data_file


def _puzzles(name: str, step: int, count: int) -> list[str]:
    lines = [line.split()[0] for line in data_file(name).read_text().splitlines() if line.strip()]
    return [p.replace(".", "0") for p in lines[::step][:count]]


def run(language: str, route: str, sample: list[str], *, plain: bool) -> float:
    """CPU milliseconds per request of ``route`` over ``sample`` in ``language``, cold."""
    app = create_app(
        {"REQUEST_DEADLINE_MS": None, "EXPLAIN_DEADLINE_MS": 60_000, "SPEEDUPS": not plain}
    )
    client = app.test_client()
    headers = {"Accept-Language": language}
    client.get(f"/p/{sample[0]}{route}", headers=headers)  # imports, templates
    spent = 0.0
    for puzzle in sample[1:]:
        start = time.process_time()
        response = client.get(f"/p/{puzzle}{route}", headers=headers)
        spent += time.process_time() - start
        if response.status_code != 200:
            raise SystemExit(f"{route or 'result'} of {puzzle}: {response.status_code}")
    return spent / (len(sample) - 1) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("languages", nargs="*", default=["en", "de", "ja"])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--plain", action="store_true", help="speed tricks off")
    args = parser.parse_args()
    routes = {
        "result": ("", _puzzles("top1465.txt", 14, 100)),
        "steps": ("/steps", _puzzles("easy50.txt", 1, 40)),
    }
    languages: list[str] = args.languages
    for name, (route, sample) in routes.items():
        figures: dict[str, list[float]] = {code: [] for code in languages}
        for round_ in range(args.rounds):
            for code in languages if round_ % 2 == 0 else languages[::-1]:
                figures[code].append(run(code, route, sample, plain=args.plain))
        base = statistics.median(figures[languages[0]])
        for code in languages:
            median = statistics.median(figures[code])
            rounds = ", ".join(f"{x:.3f}" for x in figures[code])
            print(
                f"{name:7} {code}: {median:.3f} ms CPU per request "
                f"({100 * (median / base - 1):+.1f}% vs {languages[0]}; rounds {rounds})"
            )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How each engine of a match spent its clock, from the `[%clk]` comments of its PGN.

`rookery match --pgn` writes the mover's remaining time after every move (whole seconds,
rounded down, RULES.md §10). For each player this prints the median clock after its move
at a few move numbers (over the games still going at that move) and after its last move,
split by how its games ended: the time a lost game leaves on the clock is time that could
have been spent while the game was still open.

Standard library only.

Usage: scripts/clock-use.py FILE.pgn [--moves 10,20,30,40,60]
"""

import argparse
import re
import statistics
import sys

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
# A move number, then a SAN and its clock comment: "12. Nf3 { [%clk 0:00:07] }" or
# "12... Nf6 { [%clk 0:00:07] }".
MOVE = re.compile(r"(\d+)(\.\.\.|\.)\s*[^\s{}]+\s*\{[^}]*?\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]")


def games(path):
    """Yields (tags, movetext) for each game of the file."""
    tags, text = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = TAG.match(line)
            if m:
                if text:
                    yield tags, " ".join(text)
                    tags, text = {}, []
                tags[m.group(1)] = m.group(2)
            elif line.strip():
                text.append(line.strip())
    if tags:
        yield tags, " ".join(text)


def clocks(movetext):
    """The clock after each move: {"White": {move: seconds}, "Black": {…}}."""
    out = {"White": {}, "Black": {}}
    for number, dots, h, m, s in MOVE.findall(movetext):
        side = "White" if dots == "." else "Black"
        out[side][int(number)] = int(h) * 3600 + int(m) * 60 + float(s)
    return out


def outcome(result, side):
    if result == "1/2-1/2":
        return "draw"
    if result not in ("1-0", "0-1"):
        return None
    return "win" if (result == "1-0") == (side == "White") else "loss"


def median(values):
    return f"{statistics.median(values):5.1f}" if values else "    -"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pgn")
    parser.add_argument("--moves", default="10,20,30,40,60")
    args = parser.parse_args()
    marks = [int(x) for x in args.moves.split(",")]

    # player -> outcome -> {"at": {move: [seconds]}, "end": [seconds], "moves": [n]}
    table = {}
    for tags, movetext in games(args.pgn):
        per_side = clocks(movetext)
        for side in ("White", "Black"):
            result = outcome(tags.get("Result", "*"), side)
            seen = per_side[side]
            if result is None or not seen:
                continue
            row = table.setdefault(tags.get(side, "?"), {})
            last = max(seen)
            for key in (result, "all"):
                cell = row.setdefault(key, {"at": {k: [] for k in marks}, "end": [], "moves": []})
                for k in marks:
                    if k in seen:
                        cell["at"][k].append(seen[k])
                cell["end"].append(seen[last])
                cell["moves"].append(last)
    if not table:
        sys.exit(f"{args.pgn}: no finished games with [%clk] comments")

    header = "".join(f"  @{k:<4}" for k in marks)
    print(f"median clock (s) after the player's move   games  moves{header}    end")
    for player, row in sorted(table.items()):
        for key in ("all", "win", "draw", "loss"):
            cell = row.get(key)
            if not cell:
                continue
            at = "".join(f"  {median(cell['at'][k])}" for k in marks)
            moves = statistics.median(cell["moves"])
            label = f"{player} ({key})"
            print(f"{label:<42} {len(cell['end']):6} {moves:6.0f}{at}  {median(cell['end'])}")


if __name__ == "__main__":
    main()

"""Each technique on a frozen position where it applies (exact effect) and where it must not.

The positions were found by running the logic solver over top95/top1465 and keeping, per
technique, the smallest step it produced; each expected effect was re-read by hand against
the candidates shown (the sentence above each case is the reasoning) and checked against the
engine's solution of the source puzzle (``test_case_is_sound``).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from sudoku_web.core.board import parse_puzzle, standard
from sudoku_web.core.logic import apply_step, next_step, pencil_marks
from sudoku_web.core.solver import solve
from sudoku_web.core.techniques import (
    GRADE_OF,
    KILLER,
    RULES,
    TECHNIQUES,
    UNIQUENESS,
    Candidates,
    Step,
    Technique,
    alternating_chain,
    forcing_chain,
    grouped_chain,
    intersection,
    tables_for,
    unique_rectangle,
)

GEO = standard(9)
TABLES = tables_for(GEO)
FUNCTIONS: dict[str, Technique] = {name: f for name, _, f in TECHNIQUES}
FUNCTIONS["Box/line reduction"] = intersection
FUNCTIONS["Alternating chain"] = alternating_chain
FUNCTIONS["Grouped AIC"] = FUNCTIONS["Continuous nice loop"] = grouped_chain
FUNCTIONS["Discontinuous nice loop"] = grouped_chain
FUNCTIONS["Cell forcing chain"] = FUNCTIONS["Unit forcing chain"] = forcing_chain


@dataclass(frozen=True)
class Case:
    """A technique, its source puzzle, the position (81 tokens) and the expected effect."""

    technique: str
    puzzle: str
    # "=5" for a given 5, "+5" for a 5 placed while solving (the avoidable rectangle tells them
    # apart), "139" for an open cell with candidates 1, 3, 9
    position: str
    placements: tuple[tuple[str, int], ...]
    eliminations: tuple[tuple[str, int], ...]

    def candidates(self) -> Candidates:
        """The position as candidates."""
        tokens = self.position.split()
        assert len(tokens) == 81
        placed = [t[0] in "=+" for t in tokens]
        values = tuple(int(t[1:]) if p else 0 for t, p in zip(tokens, placed, strict=True))
        masks = tuple(
            0 if p else sum(1 << (int(d) - 1) for d in t)
            for t, p in zip(tokens, placed, strict=True)
        )
        deduced = sum(1 << c for c, t in enumerate(tokens) if t.startswith("+"))
        return Candidates(values, masks, deduced)

    def __str__(self) -> str:
        return self.technique


def _cell(name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


CASES = [
    Case(
        "Hidden single",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        # In column 2, 4 can only go in r6c2, so it goes there.
        (
            "=4       1679     12679    139      2369     1269     =8       1239     =5 "
            "26789    =3       1256789  14589    24569    1245689  12679    1249     124679 "
            "2689     15689    125689   =7       234569   1245689  12369    12349    123469 "
            "3789     =2       135789   3459     34579    4579     13579    =6       13789 "
            "3679     15679    135679   359      =8       25679    =4       12359    12379 "
            "36789    456789   356789   3459     =1       245679   23579    23589    23789 "
            "289      89       289      =6       459      =3       1259     =7       12489 "
            "=5       6789     36789    =2       479      14789    1369     13489    134689 "
            "=1       6789     =4       589      579      5789     23569    23589    23689 "
        ),
        placements=(("r6c2", 4),),
        eliminations=(),
    ),
    Case(
        "Naked single",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        # r1c6 has only one candidate left, 9, so it goes there.
        (
            "=4       1679     12679    139      2369     9        =8       1239     =5 "
            "2689     =3       125689   14589    24569    4589     12679    1249     124679 "
            "2689     15689    125689   =7       234569   4589     12369    12349    123469 "
            "3789     =2       15789    3459     34579    4579     13579    =6       13789 "
            "3679     15679    15679    359      =8       25679    =4       12359    12379 "
            "36789    =4       56789    359      =1       25679    23579    23589    23789 "
            "289      89       289      =6       459      =3       1259     =7       12489 "
            "=5       6789     =3       =2       479      =1       69       489      4689 "
            "=1       6789     =4       589      579      5789     23569    23589    23689 "
        ),
        placements=(("r1c6", 9),),
        eliminations=(),
    ),
    Case(
        "Pointing",
        "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
        # In box 5, 9 can only go in r4c4 and r4c6, all in row 4; so the 9 of row 4 is one of
        # them, and 9 is removed from r4c2.
        (
            "=4       =8       =7       =3       12       12       56       =9       56 "
            "59       359      39       =6       48       48       =2       =7       =1 "
            "=1       =2       =6       57       =9       57       =3       =8       =4 "
            "=7       349      =5       89       348      489      =1       =6       =2 "
            "69       13469    349      =2       1346     57       =8       34       57 "
            "28       1346     28       57       1346     14       57       34       =9 "
            "58       45       =1       48       =7       =6       =9       =2       =3 "
            "=3       67       89       =1       28       289      =4       =5       67 "
            "269      4679     249      49       =5       =3       67       =1       =8 "
        ),
        placements=(),
        eliminations=(("r4c2", 9),),
    ),
    Case(
        "Box/line reduction",
        ".........9......84.623...5....6...453...1...6...9...7....1.....4.5..2....3.8....9",
        # In column 1, 8 can only go in r1c1 and r3c1, all in box 1; so the 8 of box 1 is one of
        # them, and 8 is removed from r1c2.
        (
            "178      178      =4       =5       6789     6789     23679    36       23 "
            "=9       =5       =3       =2       67       =1       67       =8       =4 "
            "78       =6       =2       =3       4789     4789     79       =5       =1 "
            "12       1289     189      =6       2378     378      238      =4       =5 "
            "=3       278      78       =4       =1       =5       28       =9       =6 "
            "=5       =4       =6       =9       238      38       =1       =7       238 "
            "=6       289      89       =1       3459     349      45       23       =7 "
            "=4       19       =5       =7       39       =2       368      136      38 "
            "127      =3       17       =8       456      46       45       12       =9 "
        ),
        placements=(),
        eliminations=(("r1c2", 8),),
    ),
    Case(
        "Naked pair",
        "...5...........5.697.....2...48.2...25.1...3..8..3.........4.7..13.5..9..2...31..",
        # In column 6, r3c6 and r8c6 can only hold 6 and 8 between them, so no other cell of
        # column 6 can: remove r5c6 (6).
        (
            "368      36       68       =5       =2       =1       79       =4       79 "
            "=1       =4       =2       =3       79       79       =5       =8       =6 "
            "=9       =7       =5       46       468      68       =3       =2       =1 "
            "36       369      =4       =8       679      =2       79       =1       =5 "
            "=2       =5       69       =1       4679     679      4789     =3       4789 "
            "=7       =8       =1       49       =3       =5       249      =6       249 "
            "=5       69       689      =2       =1       =4       68       =7       =3 "
            "468      =1       =3       =7       =5       68       2468     =9       248 "
            "468      =2       =7       69       689      =3       =1       =5       48 "
        ),
        placements=(),
        eliminations=(("r5c6", 6),),
    ),
    Case(
        "Hidden pair",
        "...8....9.873...4.6..7.......85..97...........43..75.......3....3...145.4....2..1",
        # In row 3, 5 and 9 can only go in r3c2 and r3c6, so those cells hold nothing else: remove
        # r3c2 (2).
        (
            "=3       25       14       =8       124      56       =7       126      =9 "
            "29       =8       =7       =3       12       69       126      =4       =5 "
            "=6       259      14       =7       124      59       128      128      =3 "
            "=1       26       =8       =5       =3       =4       =9       =7       26 "
            "57       2679     569      12       69       =8       1236     1236     =4 "
            "29       =4       =3       12       69       =7       =5       126      =8 "
            "58       =1       26       =4       58       =3       26       =9       =7 "
            "78       =3       269      69       78       =1       =4       =5       26 "
            "=4       679      569      69       57       =2       38       38       =1 "
        ),
        placements=(),
        eliminations=(("r3c2", 2),),
    ),
    Case(
        "Naked triple",
        "...658.....4......12............96.7...3..5....2.8...3..19..8..3.6.....4....473..",
        # In row 1, r1c1, r1c2 and r1c3 can only hold 3, 7 and 9 between them, so no other cell of
        # row 1 can: remove r1c8 (3).
        (
            "79       379      379      =6       =5       =8       124      1234     12 "
            "568      3568     =4       12       79       12       79       358      58 "
            "=1       =2       58       47       379      34       79       568      568 "
            "458      13458    358      45       12       =9       =6       1248     =7 "
            "46789    146789   789      =3       67       1246     =5       12489    1289 "
            "45679    145679   =2       457      =8       146      14       149      =3 "
            "2457     457      =1       =9       36       36       =8       257      25 "
            "=3       79       =6       =8       12       =5       12       79       =4 "
            "2589     589      589      12       =4       =7       =3       12569    12569 "
        ),
        placements=(),
        eliminations=(("r1c8", 3),),
    ),
    Case(
        "Hidden triple",
        ".29...6....87...2........5...59..3...4..12..6...4.7.....6..9..1.....84...5.....6.",
        # In row 6, 6, 8 and 9 can only go in r6c1, r6c2 and r6c8, so those cells hold nothing
        # else: remove r6c8 (1).
        (
            "13457    =2       =9       =8       34       1345     =6       1347     347 "
            "13456    136      =8       =7       69       1345     19       =2       349 "
            "13467    1367     147      26       269      134      1789     =5       34789 "
            "127      17       =5       =9       =8       =6       =3       147      247 "
            "89       =4       37       35       =1       =2       5789     789      =6 "
            "689      689      123      =4       35       =7       125      189      25 "
            "23478    378      =6       235      23457    =9       2578     378      =1 "
            "12379    1379     127      1236     23567    =8       =4       379      23579 "
            "1234789  =5       1247     123      2347     34       2789     =6       23789 "
        ),
        placements=(),
        eliminations=(("r6c8", 1),),
    ),
    Case(
        "X-wing",
        "9.4..5...25.6..1..31......8.7...9...4..26......147....7.......2...3..8.6.4.....9.",
        # In rows 4 and 7, 1 can only go in columns 4 and 8; each of those 2 lines needs a 1, so
        # every 1 of columns 4 and 8 is among r4c4, r4c8, r7c4 and r7c8, and 1 is removed from r5c8.
        (
            "=9       =6       =4       =8       =1       =5       =2       =3       =7 "
            "=2       =5       =8       =6       =3       =7       =1       =4       =9 "
            "=3       =1       =7       =9       24       24       56       56       =8 "
            "68       =7       236      15       58       =9       36       1268     =4 "
            "=4       389      359      =2       =6       138      =7       158      135 "
            "568      238      =1       =4       =7       38       =9       2568     35 "
            "=7       389      369      15       89       68       =4       15       =2 "
            "15       29       259      =3       2459     124      =8       =7       =6 "
            "1568     =4       256      =7       258      1268     35       =9       135 "
        ),
        placements=(),
        eliminations=(("r5c8", 1),),
    ),
    Case(
        "Skyscraper",
        "....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...",
        # 9 must go in r1c1 or r1c8 (row 1), and in r8c2 or r8c8 (row 8). r1c8 and r8c8 cannot
        # both be 9 (column 8), so r1c1 or r8c2 is 9, and 9 is removed from r9c1, which sees both.
        (
            "59       =6       =2       =3       =1       =4       =8       59       =7 "
            "14589    =3       4589     58       6789     5679     =2       16       59 "
            "1589     =7       589      =2       689      569      =4       16       =3 "
            "4578     2458     4578     =9       24678    12567    57       =3       16 "
            "=6       589      =1       58       378      357      579      =4       =2 "
            "3579     2459     34579    14       2467     12567    579      =8       16 "
            "=2       58       58       =6       39       39       =1       =7       =4 "
            "37       49       37       14       =5       12       =6       29       =8 "
            "49       =1       =6       =7       24       =8       =3       259      59 "
        ),
        placements=(),
        eliminations=(("r9c1", 9),),
    ),
    Case(
        "Two-string kite",
        "....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...",
        # 4 must go in r9c1 or r9c5 (row 9), and in r6c4 or r8c4 (column 4). r9c5 and r8c4 cannot
        # both be 4 (box 8), so r9c1 or r6c4 is 4, and 4 is removed from r6c1, which sees both.
        (
            "59       =6       =2       =3       =1       =4       =8       59       =7 "
            "14589    =3       4589     58       6789     5679     =2       16       59 "
            "1589     =7       589      =2       689      569      =4       16       =3 "
            "4578     2458     4578     =9       24678    12567    57       =3       16 "
            "=6       589      =1       58       378      357      579      =4       =2 "
            "34579    2459     34579    14       2467     12567    579      =8       16 "
            "=2       58       578      =6       39       39       =1       57       =4 "
            "3479     49       3479     14       =5       12       =6       279      =8 "
            "459      =1       =6       =7       24       =8       =3       259      59 "
        ),
        placements=(),
        eliminations=(("r6c1", 4),),
    ),
    Case(
        "Naked quad",
        "9..4.3.....2..7....4.2...9...4...56.5.......86.....4.3.7.315.....9..21......76...",
        # In box 3, r1c7, r1c8, r1c9 and r3c9 can only hold 1, 2, 5 and 7 between them, so no
        # other cell of box 3 can: remove r3c7 (7).
        (
            "=9       56       67       =4       =8       =3       27       1257     127 "
            "=1       38       =2       =5       =9       =7       368      348      46 "
            "78       =4       3578     =2       =6       =1       378      =9       57 "
            "278      12389    =4       17       23       89       =5       =6       1279 "
            "=5       1239     137      =6       23       =4       279      127      =8 "
            "=6       1289     178      17       =5       89       =4       127      =3 "
            "248      =7       68       =3       =1       =5       2689     48       2469 "
            "=3       56       =9       =8       =4       =2       =1       57       67 "
            "248      128      158      =9       =7       =6       238      348      245 "
        ),
        placements=(),
        eliminations=(("r3c7", 7),),
    ),
    Case(
        "Hidden quad",
        ".....17.....6....3.6.4.95.1.2.......3.9.7.......56.....1..4.6.........8.7.2.....9",
        # In box 6, 1, 5, 6 and 7 can only go in r4c8, r4c9, r5c8 and r5c9, so those cells hold
        # nothing else: remove r4c8 (3, 4), r4c9 (4, 8), r5c8 (4) and r5c9 (4, 8).
        (
            "459      3459     345      =2       58       =1       =7       469      468 "
            "=2       459      =1       =6       58       =7       489      49       =3 "
            "=8       =6       =7       =4       =3       =9       =5       =2       =1 "
            "456      =2       4568     138      =9       348      348      1347     4578 "
            "=3       458      =9       18       =7       24       248      1456     4568 "
            "=1       =7       48       =5       =6       23       239      39       48 "
            "59       =1       358      79       =4       358      =6       357      =2 "
            "4569     3459     3456     79       =2       35       =1       =8       457 "
            "=7       3458     =2       38       =1       =6       34       345      =9 "
        ),
        placements=(),
        eliminations=(
            ("r4c8", 3),
            ("r4c8", 4),
            ("r4c9", 4),
            ("r4c9", 8),
            ("r5c8", 4),
            ("r5c9", 4),
            ("r5c9", 8),
        ),
    ),
    Case(
        "XY-wing",
        ".47.8...1............6..7..6....357......5....1..6....28..4.....9.1...4.....2.69.",
        # r5c5 is 7 or 9. If it is 9, r3c5 (3 or 9) is 3; if it is 7, r5c2 (3 or 7) is 3. Either
        # way one of them is 3, so 3 is removed from r3c2, which sees both.
        (
            "=9       =4       =7       =5       =8       =2       =3       =6       =1 "
            "1358     =6       12358    479      379      1479     2489     258      24589 "
            "1358     35       12358    =6       39       149      =7       258      24589 "
            "=6       =2       489      489      =1       =3       =5       =7       489 "
            "3478     37       3489     24789    79       =5       2489     =1       =6 "
            "4578     =1       4589     24789    =6       4789     2489     238      23489 "
            "=2       =8       356      379      =4       679      =1       35       357 "
            "37       =9       36       =1       =5       678      28       =4       2378 "
            "14       357      14       378      =2       78       =6       =9       3578 "
        ),
        placements=(),
        eliminations=(("r3c2", 3),),
    ),
    Case(
        "Swordfish",
        "...658.....4......12............96.7...3..5....2.8...3..19..8..3.6.....4....473..",
        # In rows 1, 4 and 8, 2 can only go in columns 5, 7 and 8; each of those 3 lines needs a 2,
        # so every 2 of columns 5, 7 and 8 is among r1c7, r1c8, r4c5, r4c8, r8c5 and r8c7, and 2 is
        # removed from r5c8.
        (
            "=9       =3       =7       =6       =5       =8       24       24       =1 "
            "568      568      =4       12       =9       12       =7       =3       58 "
            "=1       =2       58       =7       =3       =4       =9       568      568 "
            "458      1458     =3       45       12       =9       =6       248      =7 "
            "468      1468     89       =3       =7       12       =5       1248     289 "
            "457      14579    =2       45       =8       =6       14       149      =3 "
            "2457     457      =1       =9       =6       =3       =8       57       25 "
            "=3       79       =6       =8       12       =5       12       79       =4 "
            "258      58       589      12       =4       =7       =3       156      269 "
        ),
        placements=(),
        eliminations=(("r5c8", 2),),
    ),
    Case(
        "XYZ-wing",
        "38.6.......9.......2..3.51......5....3..1..6....4......17.5..8.......9.......7.32",
        # r5c4 is 2, 8 or 9, r5c6 is 2 or 8 and r9c4 is 8 or 9. Whatever r5c4 holds, one of the
        # three is 8, so 8 is removed from r4c4, which sees all three.
        (
            "=3       =8       =5       =6       24       =1       247      2479     479 "
            "=1       =7       =9       =5       248      248      36       24       36 "
            "=4       =2       =6       =7       =3       =9       =5       =1       =8 "
            "6789     469      1248     2389     26789    =5       23478    2479     13479 "
            "5789     =3       248      289      =1       28       2478     =6       4579 "
            "56789    569      128      =4       26789    2368     2378     2579     13579 "
            "29       =1       =7       239      =5       23       46       =8       46 "
            "268      46       =3       =1       2468     2468     =9       57       57 "
            "5689     4569     48       89       4689     =7       =1       =3       =2 "
        ),
        placements=(),
        eliminations=(("r4c4", 8),),
    ),
    Case(
        "W-wing",
        "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....",
        # r5c3 and r9c4 are both 4 or 9. In row 8, 9 must go in r8c3 or r8c6; r8c3 sees r5c3 and
        # r8c6 sees r9c4, so one of r5c3 and r9c4 is not 9 and is 4: 4 is removed from r9c3, which
        # sees both.
        (
            "=4       =8       =7       =3       12       12       56       =9       56 "
            "59       59       =3       =6       48       48       =2       =7       =1 "
            "=1       =2       =6       57       =9       57       =3       =8       =4 "
            "=7       34       =5       89       348      489      =1       =6       =2 "
            "69       13469    49       =2       1346     57       =8       34       57 "
            "28       1346     28       57       1346     14       57       34       =9 "
            "58       45       =1       48       =7       =6       =9       =2       =3 "
            "=3       67       89       =1       28       289      =4       =5       67 "
            "26       4679     249      49       =5       =3       67       =1       =8 "
        ),
        placements=(),
        eliminations=(("r9c3", 4),),
    ),
    Case(
        "Simple colouring",
        "..84...3....3.....9....157479...8........7..514.....2...9.6...2.5....4......9..56",
        # 6's strong links join its places into a cluster: 6 is either in all the blue cells
        # (r1c6 and r6c3) or in all the green cells (r3c4 and r6c6). Whichever it is, a cell
        # that sees both a blue and a green cell cannot be 6: 6 is removed from r3c3.
        (
            "=5       126      =8       =4       =7       26       126      =3       =9 "
            "24       1267     147      =3       =5       =9       1268     168      18 "
            "=9       236      236      268      28       =1       =5       =7       =4 "
            "=7       =9       256      1256     124      =8       136      146      13 "
            "238      2368     236      126      124      =7       =9       146      =5 "
            "=1       =4       56       =9       =3       56       78       =2       78 "
            "348      1378     =9       1578     =6       345      1378     18       =2 "
            "=6       =5       17       1278     128      23       =4       =9       1378 "
            "2348     12378    147      178      =9       34       1378     =5       =6 "
        ),
        placements=(),
        eliminations=(("r3c3", 6),),
    ),
    Case(
        "Multi-colouring",
        "......94.....9...53....5.7..8.4..1..463...........7.8.8..7.....7......28.5.26....",
        # 4's strong links join its places into clusters: in one, 4 is either in all the blue
        # cells (r2c3, r3c5 and r8c6) or in all the green cells (r2c6 and r7c5); in another,
        # either in the yellow cell r9c3 or in the purple cell r9c7. Blue r2c3 sees yellow r9c3,
        # so blue and yellow are not both true: green or purple is, and 4 is removed from r7c7,
        # which sees both a green and a purple cell.
        (
            "1256     12       15       =8       =7       126      =9       =4       =3 "
            "126      =7       48       136      =9       234      28       16       =5 "
            "=3       49       489      16       24       =5       28       =7       16 "
            "25       =8       =7       =4       235      236      =1       36       =9 "
            "=4       =6       =3       19       =8       19       =7       =5       =2 "
            "1259     129      1259     356      235      =7       36       =8       =4 "
            "=8       2349     126      =7       345      39       45       169      16 "
            "=7       349      46       359      =1       349      456      =2       =8 "
            "19       =5       149      =2       =6       =8       34       139      =7 "
        ),
        placements=(),
        eliminations=(("r7c7", 4),),
    ),
    Case(
        "Jellyfish",
        ".....3...8..2..67..6.......51...2.4.......3..47.5....87..4..8....2.1....6..3..4.5",
        # In rows 2, 6, 7 and 9, 9 can only go in columns 2, 3, 5 and 6; each of those 4 lines needs
        # a 9, so every 9 of columns 2, 3, 5 and 6 is among r2c3, r2c5, r6c3, r6c5, r6c6, r7c2,
        # r7c3, r7c6, r9c2, r9c3 and r9c5, and 9 is removed from r1c2, r1c5, r3c5, r5c2, r5c3 and
        # r5c5.
        (
            "129      259      47       1679     456789   =3       125      89       124 "
            "=8       =3       59       =2       59       14       =6       =7       14 "
            "129      =6       47       179      45789    148      125      89       =3 "
            "=5       =1       38       679      38       =2       79       =4       679 "
            "29       289      689      1679     46789    148      =3       =5       679 "
            "=4       =7       369      =5       369      69       12       12       =8 "
            "=7       59       159      =4       26       69       =8       =3       12 "
            "=3       =4       =2       =8       =1       =5       79       =6       79 "
            "=6       89       189      =3       29       =7       =4       12       =5 "
        ),
        placements=(),
        eliminations=(("r1c2", 9), ("r1c5", 9), ("r3c5", 9), ("r5c2", 9), ("r5c3", 9), ("r5c5", 9)),
    ),
    Case(
        "Finned X-wing",
        "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....",
        # In rows 1 and 4, 1 can only go in columns 4 and 8, except for the fin r4c7. Either the fin
        # holds 1, or the X-wing does; either way 1 is removed from r6c8: in columns 4 and 8, seeing
        # the fin.
        (
            "=6       478      =2       1478     =5       47       =3       17       =9 "
            "1789     5789     15789    1789     169      =3       168      =4       =2 "
            "13789    4789     13489    14789    1469     =2       168      1567     56 "
            "=4       =3       5679     1579     =2       =8       169      1569     56 "
            "789      =1       56789    34579    349      45679    =2       3569     48 "
            "289      25689    5689     13459    1349     4569     =7       13569    48 "
            "=5       4689     14689    =2       =7       149      469      69       =3 "
            "279      24679    4679     3459     349      459      4569     =8       =1 "
            "139      49       1349     =6       =8       1459     459      =2       =7 "
        ),
        placements=(),
        eliminations=(("r6c8", 1),),
    ),
    Case(
        "Unique rectangle",
        ".6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8...",
        # r1c3, r1c7, r2c3 and r2c7 form a rectangle over two boxes, and three of them are 7 or 8.
        # If r1c3 were just that too, the four cells could swap 7 and 8 and the puzzle would have
        # two solutions; it has one, so r1c3 is neither: remove r1c3 (7, 8).
        (
            "378      =6       378      =5       =2       =1       78       =9       =4 "
            "=1       =2       78       46       =9       46       78       =5       =3 "
            "=9       =5       =4       =3       =8       =7       16       126      126 "
            "2356     =4       2359     =8       136      239      16       =7       126 "
            "2367     39       2379     1249     1346     2349     =5       1246     =8 "
            "26       =8       =1       =7       46       =5       49       =3       269 "
            "348      139      389      1469     =5       3469     =2       1468     =7 "
            "23458    139      23589    12469    =7       23469    349      1468     1569 "
            "2345     =7       =6       1249     134      =8       349      14       159 "
        ),
        placements=(),
        eliminations=(("r1c3", 7), ("r1c3", 8)),
    ),
    Case(
        "Unique rectangle type 2",
        ".6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8...",
        # r3c7, r3c9, r4c7 and r4c9 form a rectangle over two boxes with 1 and 6 in each; r3c7 and
        # r4c7 hold nothing else and r3c9 and r4c9 only add 2. If neither were 2, the four cells
        # could swap 1 and 6 and the puzzle would have two solutions; it has one, so one of them is
        # 2: remove r6c9 (2).
        (
            "78       =6       +3       =5       +2       =1       78       =9       +4 "
            "=1       +2       78       46       =9       46       78       =5       =3 "
            "=9       +5       +4       +3       +8       =7       16       126      126 "
            "2356     =4       259      =8       136      239      16       =7       126 "
            "2367     39       279      1249     1346     2349     =5       1246     =8 "
            "26       =8       =1       =7       46       =5       49       =3       269 "
            "348      139      89       1469     =5       3469     =2       1468     +7 "
            "23458    139      2589     12469    +7       23469    349      1468     1569 "
            "2345     =7       =6       1249     134      =8       349      14       159 "
        ),
        placements=(),
        eliminations=(("r6c9", 2),),
    ),
    Case(
        "Unique rectangle type 3",
        "5.1.94....2.6.59................2.17.3..4..6.......5.........2.....3.8...6.8.93..",
        # r2c5, r2c9, r3c5 and r3c9 form a rectangle over two boxes with 1 and 8 in each; r2c5 and
        # r3c5 hold nothing else, and r2c9 and r3c9 add 4 and 5. If neither held one of those, the
        # four cells could swap 1 and 8 and the puzzle would have two solutions; it has one, so one
        # of them does, and the two act as one cell with 4 and 5. With r3c8 (4, 5) that makes a
        # naked pair of 4 and 5 in box 3: remove r2c8 (4).
        (
            "=5       +8       =1       +7       =9       =4       +6       +3       +2 "
            "34       =2       37       =6       18       =5       =9       478      148 "
            "469      479      69       +2       18       +3       17       45       1458 "
            "689      59       689      +3       56       =2       +4       =1       =7 "
            "17       =3       57       159      =4       78       +2       =6       89 "
            "246      147      246      19       67       168      =5       89       +3 "
            "38       459      38       145      567      167      17       =2       469 "
            "29       1457     259      45       =3       167      =8       79       46 "
            "17       =6       47       =8       +2       =9       =3       457      15 "
        ),
        placements=(),
        eliminations=(("r2c8", 4),),
    ),
    Case(
        "Unique rectangle type 4",
        "8.9...3.....7.1...5.........7.....263...9.......1...4..6.2....4....8.5...........",
        # r1c8, r1c9, r5c8 and r5c9 form a rectangle over two boxes with 5 and 7 in each; r1c8 and
        # r1c9 hold nothing else. In row 5, 5 can only go in r5c8 and r5c9, so one of them is 5; if
        # the other were 7, the four cells could swap 5 and 7 and the puzzle would have two
        # solutions; it has one, so remove r5c8 (7) and r5c9 (7).
        (
            "=8       +1       =9       46       26       246      =3       57       57 "
            "246      234      2346     =7       +5       =1       24       89       89 "
            "=5       24       +7       89       +3       89       246      16       12 "
            "19       =7       18       35       +4       35       189      =2       =6 "
            "=3       248      12468    68       =9       2678     178      1578     1578 "
            "269      2589     2568     =1       267      2678     789      =4       +3 "
            "179      =6       1358     =2       17       3579     178      13789    =4 "
            "12479    2349     1234     3469     =8       34679    =5       13679    1279 "
            "12479    234589   123458   34569    167      345679   26       136789   12789 "
        ),
        placements=(),
        eliminations=(("r5c8", 7), ("r5c9", 7)),
    ),
    Case(
        "Unique rectangle type 5",
        "....2.68.9..3.........6.3...9...6..7.1....8..3.6..8.2......5...4.2.1.9...8.9...7.",
        # r1c6, r1c9, r3c6 and r3c9 form a rectangle over two boxes with 1 and 9 in each; r1c6 holds
        # nothing else and r1c9, r3c6 and r3c9 only add 4. If none of them were 4, the four cells
        # could swap 1 and 9 and the puzzle would have two solutions; it has one, so one of them is
        # 4: remove r3c8 (4).
        (
            "157      3457     134      57       =2       19       =6       =8       149 "
            "=9       +6       145      =3       +8       14       +7       145      +2 "
            "1578     +2       14578    57       =6       149      =3       1459     149 "
            "28       =9       48       124      +5       =6       14       +3       =7 "
            "257      =1       457      24       79       +3       =8       49       +6 "
            "=3       47       =6       14       79       =8       145      =2       1459 "
            "17       37       +9       +6       34       =5       +2       14       +8 "
            "=4       35       =2       +8       =1       +7       =9       +6       35 "
            "+6       =8       135      =9       34       +2       145      =7       1345 "
        ),
        placements=(),
        eliminations=(("r3c8", 4),),
    ),
    Case(
        "Unique rectangle type 6",
        "5..6.3....2....98.......1...1..9.......3....67.......4....8.25.4..7..............",
        # r1c7, r1c8, r9c7 and r9c8 form a rectangle over two boxes with 4 and 7 in each; r1c7 and
        # r9c8 hold nothing else. In row 1 and row 9, 4 can only go in the corners, so if r1c8 or
        # r9c7 were 4, both would be, with 7 in the other two, and the four cells could swap 4 and 7
        # and the puzzle would have two solutions; it has one, so r1c8 and r9c7 are not 4: remove
        # r1c8 (4) and r9c7 (4).
        (
            "=5       89       89       =6       +1       =3       47       247      27 "
            "16       =2       16       45       47       457      =9       =8       +3 "
            "+3       47       47       89       +2       89       =1       +6       +5 "
            "68       =1       34568    458      =9       45678    3578     27       278 "
            "289      4589     24589    =3       47       14578    578      19       =6 "
            "=7       35689    35689    1258     56       12568    358      19       =4 "
            "169      3679     13679    149      =8       1469     =2       =5       179 "
            "=4       5689     12589    =7       56       12569    68       +3       189 "
            "12689    56789    1256789  1259     +3       12569    4678     47       1789 "
        ),
        placements=(),
        eliminations=(("r1c8", 4), ("r9c7", 4)),
    ),
    Case(
        "Hidden rectangle",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
        # r4c2, r4c3, r7c2 and r7c3 form a rectangle over two boxes with 4 and 6 in each; r7c2 holds
        # nothing else. In row 4 and column 3, 4 can only go in the corners, so if r4c3 were 6, r7c3
        # and r4c2 would be 4 and r7c2 6, and the four cells could swap 4 and 6 and the puzzle would
        # have two solutions; it has one, so remove r4c3 (6).
        (
            "=4       569      1268     5789     =3       15789    25       2567     5679 "
            "1237     359      12       =6       127      14579    =8       2357     34579 "
            "23678    3569     268      45789    278      45789    2345     23567    =1 "
            "1236     346      1246     378      =5       13678    23       =9       378 "
            "123      =8       59       3479     17       13479    =6       12357    357 "
            "136      =7       59       =2       168      13689    345      1358     3458 "
            "68       46       468      =1       +9       =2       =7       35       35 "
            "=5       +1       =3       78       678      678      +9       =4       +2 "
            "=9       +2       +7       35       +4       35       +1       68       68 "
        ),
        placements=(),
        eliminations=(("r4c3", 6),),
    ),
    Case(
        "Avoidable rectangle",
        "5..2..3......8..9...2..4..66..1..9...1.....4...7..3..87..3..4...9..7..2...5..6..9",
        # r8c9 (1), r8c6 (5) and r7c9 (5) were placed while solving, not given, and with r7c6 they
        # form a rectangle over two boxes. If r7c6 were 1, none of the four would be a given: the
        # four cells could swap 1 and 5 and the puzzle would have two solutions; it has one, so
        # remove r7c6 (1).
        (
            "=5       468      189      =2       169      179      =3       78       47 "
            "14       346      134      56       =8       17       25       =9       247 "
            "89       +7       =2       59       +3       =4       +1       58       =6 "
            "=6       23458    348      =1       24       28       =9       57       237 "
            "289      =1       389      +7       +5       289      +6       =4       23 "
            "249      245      =7       69       2469     =3       25       +1       =8 "
            "=7       28       18       =3       129      129      =4       +6       +5 "
            "+3       =9       +6       +4       =7       +5       +8       =2       +1 "
            "124      24       =5       +8       12       =6       +7       +3       =9 "
        ),
        placements=(),
        eliminations=(("r7c6", 1),),
    ),
    Case(
        "Avoidable rectangle type 2",
        "...3...1..14.27........5..6653...1.747.......1......8......49.58......2....5.....",
        # r5c4 (1) and r8c4 (9) were placed while solving, not given; across from them r5c6 holds
        # just 9 and 3, and r8c6 just 1 and 3, a rectangle over two boxes. If neither were 3, none
        # of the four would be a given: the four cells could swap 1 and 9 and the puzzle would have
        # two solutions; it has one, so one of them is 3: remove r9c6 (3).
        (
            "25       26       267      =3       89       89       2457     =1       24 "
            "359      =1       =4       +6       =2       =7       38       35       89 "
            "239      +8       279      +4       +1       =5       237      379      =6 "
            "=6       =5       =3       28       489      289      =1       49       =7 "
            "=4       =7       +8       +1       35       39       256      569      29 "
            "=1       29       29       +7       45       +6       45       =8       +3 "
            "27       236      +1       28       3678     =4       =9       367      =5 "
            "=8       346      +5       +9       367      13       3467     =2       14 "
            "279      23469    69       =5       367      123      34678    3467     148 "
        ),
        placements=(),
        eliminations=(("r9c6", 3),),
    ),
    Case(
        "BUG+1",
        "1.......3.6.3..7...7...5..121.7...9...7........8.1..2....8.64....9.2..6....4.....",
        # Every open cell but r5c1 has two candidates. If r5c1 were not 4, every digit would have
        # exactly two places in each house that still needs it, a deadly pattern with no solution
        # or two; the puzzle has one, so r5c1 is 4.
        (
            "=1       59       24       26       =7       =8       69       45       =3 "
            "58       =6       24       =3       49       =1       =7       58       29 "
            "89       =7       =3       29       46       =5       26       48       =1 "
            "=2       =1       =5       =7       36       34       =8       =9       46 "
            "469      49       =7       =5       =8       =2       =1       =3       46 "
            "46       =3       =8       69       =1       49       =5       =2       =7 "
            "=3       =2       =1       =8       59       =6       =4       =7       59 "
            "45       45       =9       =1       =2       =7       =3       =6       =8 "
            "=7       =8       =6       =4       35       39       29       =1       25 "
        ),
        placements=(("r5c1", 4),),
        eliminations=(),
    ),
    Case(
        "Finned swordfish",
        ".47.2....8....1....3....9.2.....5...6..81..5.....4.....7....3.4...9...1.4..27.8..",
        # In rows 2, 5 and 9, 3 can only go in columns 3, 6 and 9, except for the fin r2c4; without
        # it, row 2 would keep 3 only in r2c9 (a sashimi swordfish). Either the fin holds 3, or the
        # swordfish does; either way 3 is removed from r1c6: in columns 3, 6 and 9, seeing the fin.
        (
            "=9       =4       =7       356      =2       368      156      368      13568 "
            "=8       256      256      3456     =9       =1       456      =7       356 "
            "15       =3       156      456      68       =7       =9       468      =2 "
            "1237     1289     12489    367      36       =5       1246     234689   13689 "
            "=6       29       34       =8       =1       29       47       =5       37 "
            "12357    158      123589   367      =4       29       126      23689    13689 "
            "25       =7       25689    =1       568      68       =3       269      =4 "
            "235      2568     23568    =9       3568     =4       2567     =1       567 "
            "=4       1569     13569    =2       =7       36       =8       69       569 "
        ),
        placements=(),
        eliminations=(("r1c6", 3),),
    ),
    Case(
        "Finned jellyfish",
        "28..3.......5...4..........3.....8.2...4.7......1......64....7.....1.3....5......",
        # In rows 3, 6, 8 and 9, 6 can only go in columns 3, 6, 8 and 9, except for the fin r3c7.
        # Either the fin holds 6, or the jellyfish does; either way 6 is removed from r1c9: in
        # columns 3, 6, 8 and 9, seeing the fin.
        (
            "=2       =8       169      69       =3       =4       =7       59       156 "
            "679      179      1369     =5       69       28       1269     =4       1389 "
            "=4       =5       369      28       =7       =1       69       28       369 "
            "=3       =4       =7       69       569      59       =8       =1       =2 "
            "689      129      12689    =4       28       =7       56       =3       569 "
            "=5       29       2689     =1       28       =3       =4       69       =7 "
            "18       =6       =4       =3       59       28       1259     =7       1589 "
            "789      279      289      78       =1       56       =3       56       =4 "
            "178      =3       =5       278      =4       69       19       28       1689 "
        ),
        placements=(),
        eliminations=(("r1c9", 6),),
    ),
    Case(
        "XY-chain",
        ".47.8...1............6..7..6....357......5....1..6....28..4.....9.1...4.....2.69.",
        # Along the chain of two-candidate cells, if r1c1 is not 9, it is 5, so r3c2 is 3, so r5c2
        # is 7, so r5c5 is 9. So r1c1 or r5c5 is 9, and 9 is removed from r5c1, which sees both.
        (
            "59       =4       =7       59       =8       =2       =3       =6       =1 "
            "13589    =6       123589   34579    3579     1479     2489     258      24589 "
            "13589    35       123589   =6       359      149      =7       258      24589 "
            "=6       =2       489      489      =1       =3       =5       =7       489 "
            "34789    37       3489     24789    79       =5       2489     =1       =6 "
            "45789    =1       4589     24789    =6       4789     2489     238      23489 "
            "=2       =8       356      3579     =4       679      =1       35       357 "
            "357      =9       356      =1       357      678      28       =4       23578 "
            "14       357      14       378      =2       78       =6       =9       3578 "
        ),
        placements=(),
        eliminations=(("r5c1", 9),),
    ),
    Case(
        "X-chain",
        ".47.8...1............6..7..6....357......5....1..6....28..4.....9.1...4.....2.69.",
        # Following strong and weak links in turn: if r1c1 is not 5, then r1c4 is 5, so r7c4 is
        # not 5, so r8c5 is 5. So r1c1 is 5 or r8c5 is 5, and whatever contradicts both goes:
        # remove r8c1 (5).
        (
            "359      =4       =7       2359     =8       29       239      =6       =1 "
            "13589    =6       123589   234579   3579     12479    23489    2358     234589 "
            "13589    35       123589   =6       359      1249     =7       2358     234589 "
            "=6       =2       489      489      =1       =3       =5       =7       489 "
            "34789    37       3489     24789    79       =5       123489   1238     =6 "
            "345789   =1       34589    24789    =6       24789    23489    238      23489 "
            "=2       =8       356      3579     =4       679      13       135      357 "
            "357      =9       356      =1       357      678      238      =4       23578 "
            "14       357      14       378      =2       78       =6       =9       3578 "
        ),
        placements=(),
        eliminations=(("r8c1", 5),),
    ),
    Case(
        "Alternating chain",
        ".524.........7.1..............8.2...3.....6...9.5.....1.6.3...........897........",
        # Following strong and weak links in turn: if r5c6 is not 7, then r5c4 is 7, so r5c4 is
        # not 1, so r8c4 is 1, so r8c4 is not 6, so r8c6 is 6. So r5c6 is 7 or r8c6 is 6, and
        # whatever contradicts both goes: remove r8c6 (7).
        (
            "69       =5       =2       =4       =8       =1       79       3679     367 "
            "4689     346      348      69       =7       569      =1       24569    24568 "
            "4689     17       17       =3       =2       569      4589     4569     4568 "
            "456      1467     1457     =8       1469     =2       4579     134579   13457 "
            "=3       124      1458     17       149      47       =6       12459    12458 "
            "2468     =9       1478     =5       146      =3       2478     1247     12478 "
            "=1       248      =6       79       =3       4789     2457     2457     2457 "
            "245      234      345      167      14       467      2347     =8       =9 "
            "=7       348      =9       =2       =5       48       34       16       16 "
        ),
        placements=(),
        eliminations=(("r8c6", 7),),
    ),
    Case(
        "Grouped X-chain",
        ".26.39......6....19.....7.......4..9.5....2....85.....3..2..9..4....762.........4",
        # Following strong and weak links in turn: if r5c4 is not 7, then r1c4 is 7, so r1c1 is not
        # 7, so 7 is in r5c1 or r6c1, so 7 is in neither r4c2 nor r4c3, so r4c8 is 7. So r5c4 is 7
        # or r4c8 is 7, and whatever contradicts both goes: remove r5c8 (7) and r5c9 (7).
        (
            "17       =2       =6       17       =3       =9       458      458      58 "
            "58       47       457      =6       2578     258      =3       =9       =1 "
            "=9       138      135      =4       158      158      =7       =6       =2 "
            "26       137      137      =8       26       =4       15       157      =9 "
            "167      =5       49       1379     1679     136      =2       13478    3678 "
            "1267     49       =8       =5       12679    1236     14       1347     367 "
            "=3       1678     157      =2       =4       1568     =9       1578     578 "
            "=4       189      19       139      158      =7       =6       =2       358 "
            "58       16789    =2       139      1689     1368     158      13578    =4 "
        ),
        placements=(),
        eliminations=(
            ("r5c8", 7),
            ("r5c9", 7),
        ),
    ),
    Case(
        "Grouped AIC",
        "..5..8..18......9.......78....4.....64....9......53..2.6.........138..5....9.714.",
        # Following strong and weak links in turn: if 2 is in none of r9c1, r9c2 and r9c3, then r9c5
        # is 2, so r9c5 is not 6, so r8c6 is 6, so r8c7 is not 6, so r8c7 is 2. So 2 is in r9c1,
        # r9c2 or r9c3 or r8c7 is 2, and whatever contradicts both goes: remove r8c1 (2) and r8c2
        # (2).
        (
            "3479     379      =5       67       3479     =8       236      236      =1 "
            "=8       1237     23467    1267     123467   126      =5       =9       346 "
            "12349    1239     23469    1256     123469   12569    =7       =8       346 "
            "12357    12357    237      =4       12679    1269     368      1367     3678 "
            "=6       =4       2378     1278     127      12       =9       137      =5 "
            "179      1789     789      1678     =5       =3       =4       167      =2 "
            "23479    =6       234789   125      12       1245     238      237      3789 "
            "2479     279      =1       =3       =8       246      26       =5       679 "
            "235      2358     238      =9       26       =7       =1       =4       368 "
        ),
        placements=(),
        eliminations=(
            ("r8c1", 2),
            ("r8c2", 2),
        ),
    ),
    Case(
        "Continuous nice loop",
        ".52..68.......7.2.......6....48..9..2..41......1.....8..61..38.....9...63..6..1.9",
        # Strong and weak links in turn close a loop: if 3 is in neither r1c8 nor r1c9, then r1c4 is
        # 3, so r1c4 is not 9, so r1c8 is 9, so r3c8 is not 9, so r3c8 is 3, so 3 is in neither r1c8
        # nor r1c9 again. Around such a loop every other node is true, so each link has exactly one
        # true end, and whatever contradicts both ends of a link goes: remove r3c9 (3).
        (
            "17       =5       =2       39       =4       =6       =8       379      137 "
            "14689    146      389      359      358      =7       45       =2       145 "
            "478      3478     3789     =2       358      =1       =6       39       3457 "
            "567      367      =4       =8       356      35       =9       =1       =2 "
            "=2       3689     3589     =4       =1       59       =7       356      35 "
            "569      369      =1       =7       236      239      45       3456     =8 "
            "4579     2479     =6       =1       257      245      =3       =8       457 "
            "14578    18       578      35       =9       348      =2       457      =6 "
            "=3       247      578      =6       257      48       =1       457      =9 "
        ),
        placements=(),
        eliminations=(("r3c9", 3),),
    ),
    Case(
        "Discontinuous nice loop",
        ".6..5.4.3.2.1...........7..4.3...6..7..5........2.........8..5.6...4...........1.",
        # Following weak and strong links in turn: if r6c6 is 8, then r3c6 is not 8, so 8 is in r3c2
        # or r3c3, so r2c1 is not 8, so r6c1 is 8, so r6c6 is not 8 after all. The assumption
        # contradicts itself, so r6c6 is not 8.
        (
            "=1       =6       =7       89       =5       289      =4       289      =3 "
            "389      =2       =4       =1       367      3679     589      689      58 "
            "359      38       589      =4       2369     23689    =7       269      =1 "
            "=4       =5       =3       789      =1       789      =6       789      =2 "
            "=7       189      =2       =5       369      34689    138      3489     89 "
            "89       19       =6       =2       379      34789    135      3479     5789 "
            "239      47       19       3679     =8       1279     39       =5       46 "
            "=6       389      15       39       =4       15       =2       3789     789 "
            "2359     47       589      3679     279      2579     389      =1       46 "
        ),
        placements=(),
        eliminations=(("r6c6", 8),),
    ),
    Case(
        "Empty rectangle",
        "6..3.2....5.....1..........7.26............543.........8.15........4.2........7..",
        # In box 7, 4 can only go in row 9 or column 3 (an empty rectangle), and in row 1 only
        # in r1c3 or r1c8. If r1c3 is 4, the 4 of box 7 is in row 9; if not, r1c8 is. r9c8 sees
        # r1c8 and the part of box 7 in row 9, so either way 4 is removed from it.
        (
            "=6       179      14789    =3       1789     =2       =5       479      89 "
            "489      =5       34789    4789     6789     46789    3489     =1       =2 "
            "1489     =2       134789   =5       1789     14789    3489     34679    3689 "
            "=7       =4       =2       =6       1389     =5       1389     39       389 "
            "189      169      1689     279      12379    1379     1369     =5       =4 "
            "=3       169      =5       489      189      1489     1689     =2       =7 "
            "=2       =8       4679     =1       =5       3679     349      3469     369 "
            "159      13679    1679     789      =4       36789    =2       3689     15 "
            "1459     1369     1469     289      23689    3689     =7       34689    15 "
        ),
        placements=(),
        eliminations=(("r9c8", 4),),
    ),
    Case(
        "ALS-XZ",
        ".6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8...",
        # r4c5, r4c7 and r4c9 (row 4: 1, 2, 3 and 6) and r1c5 and r3c5 (column 5: 2, 3 and 8)
        # are almost locked sets: each has one digit more than cells. Every 3 of one sees every
        # 3 of the other, so at most one holds 3, and the other holds all its other digits, 2
        # among them. So 2 is in one of the two sets, and 2 is removed from r1c9, which sees
        # every 2 of both.
        (
            "378      =6       3478     =5       238      =1       478      =9       24 "
            "=1       =2       78       46       =9       46       78       =5       =3 "
            "=9       35       3458     23       38       =7       1468     12468    1246 "
            "2356     =4       2359     =8       136      239      16       =7       126 "
            "2367     39       2379     12349    1346     2349     =5       1246     =8 "
            "26       =8       =1       =7       246      =5       469      =3       2469 "
            "348      139      389      13469    =5       3469     =2       1468     =7 "
            "23458    1359     23589    123469   =7       23469    134689   1468     14569 "
            "2345     =7       =6       12349    1234     =8       1349     14       1459 "
        ),
        placements=(),
        eliminations=(("r1c9", 2),),
    ),
    Case(
        "ALS-XY-wing",
        ".5.7.1...2.8....6...........4.3..5..9.2......6...8.....7.1..3......2..9..........",
        # Take the almost locked sets A = r4c5 (row 4: 1 and 9), B = r4c1, r4c3 and r4c8 (row 4: 1,
        # 2, 7 and 8) and C = r6c7 (row 6: 2 and 9): each has one digit more than cells, so a set
        # that loses a digit holds all the others. If A had no 9, it would hold 1; every 1 of B sees
        # every 1 of A, so B would lose 1 and hold 2; every 2 of C sees every 2 of B, so C would
        # lose 2 and hold 9. So 9 is in A or C, and 9 is removed from r4c9, r6c4 and r6c6, which see
        # every 9 of both.
        (
            "34       =5       346      =7       346      =1       29       28       289 "
            "=2       19       =8       459      345      3459     147      =6       13457 "
            "347      169      13467    28       34569    28       14       1345     1345 "
            "178      =4       17       =3       19       269      =5       128      12689 "
            "=9       138      =2       456      1457     4567     1468     13478    13468 "
            "=6       13       =5       249      =8       2479     29       12347    123479 "
            "458      =7       469      =1       459      45689    =3       2458     24568 "
            "13458    168      1346     4568     =2       345678   14678    =9       14567 "
            "13458    =2       13469    45689    34579    3456789  14678    14578    145678 "
        ),
        placements=(),
        eliminations=(
            ("r4c9", 9),
            ("r6c4", 9),
            ("r6c6", 9),
        ),
    ),
    Case(
        "ALS chain",
        ".47.2....8....1....3....9.2.....5...6..81..5.....4.....7....3.4...9...1.4..27.8..",
        # Take the almost locked sets A = r1c4 (row 1: 3 and 6), B = r4c4 and r6c4 (column 4: 3, 6
        # and 7), C = r5c2 and r5c6 (row 5: 2, 3 and 9) and D = r2c9, r5c9 and r8c9 (column 9: 3, 6,
        # 7 and 9): each has one digit more than cells, so a set that loses a digit holds all the
        # others. If A had no 3, it would hold 6; every 6 of B sees every 6 of A, so B would lose 6
        # and hold 3; every 3 of C sees every 3 of B, so C would lose 3 and hold 9; every 9 of D
        # sees every 9 of C, so D would lose 9 and hold 3. So 3 is in A or D, and 3 is removed from
        # r1c9, which sees every 3 of both.
        (
            "59       =4       =7       36       =2       689      156      368      1368 "
            "=8       2569     2569     45       369      =1       456      =7       36 "
            "15       =3       156      45       68       =7       =9       468      =2 "
            "1237     1289     12348    367      39       =5       1246     23468    13689 "
            "=6       29       2349     =8       =1       239      247      =5       379 "
            "12357    12589    123589   367      =4       269      126      2368     13689 "
            "259      =7       259      =1       568      68       =3       26       =4 "
            "235      2568     2358     =9       356      =4       267      =1       67 "
            "=4       16       136      =2       =7       36       =8       =9       =5 "
        ),
        placements=(),
        eliminations=(("r1c9", 3),),
    ),
    Case(
        "Sue de Coq",
        "..3...67.5.....3...4.......6..3......8......4...7....12......5.....98.......41...",
        # Where column 2 meets box 1, r1c2 and r2c2 can hold 1, 2, 6 and 9, 2 digits more than
        # cells. With r7c2 (1 and 9) in column 2 and r3c3 (2 and 6) in box 1, that makes 4 cells for
        # 4 digits. Among them, every 1 and 9 is in column 2 and every 2 and 6 in box 1, so no digit
        # can be there twice: each is there exactly once, and goes from the rest of its house.
        # Remove r2c3 (2, 6), r4c2 (1, 9), r6c2 (9), r8c2 (1) and r9c2 (9).
        (
            "189      129      =3       =4       125      259      =6       =7       2589 "
            "=5       1269     12689    189      1267     2679     =3       =4       289 "
            "=7       =4       26       89       2356     2356     189      189      25 "
            "=6       1259     12459    =3       1258     2459     2589     289      =7 "
            "139      =8       =7       19       1256     2569     259      36       =4 "
            "349      2359     2459     =7       2568     24569    2589     36       =1 "
            "=2       19       1489     =6       37       37       1489     =5       89 "
            "134      13567    1456     25       =9       =8       1247     12       36 "
            "389      35679    5689     25       =4       =1       2789     289      36 "
        ),
        placements=(),
        eliminations=(
            ("r2c3", 2),
            ("r2c3", 6),
            ("r4c2", 1),
            ("r4c2", 9),
            ("r6c2", 9),
            ("r8c2", 1),
            ("r9c2", 9),
        ),
    ),
    Case(
        "Forcing chain by contradiction",
        "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....",
        # If r6c2 is 6, then r8c2 is 2 (hidden single in column 2), r2c2 is 5 (hidden single in
        # column 2), r5c6 is 6 (hidden single in column 6), r1c6 is 7 (hidden single in column 6),
        # r3c2 is 7 (hidden single in column 2), r3c8 is 7 (hidden single in column 8); then 7
        # would be twice in row 3 (r3c2 and r3c8). That cannot be, so r6c2 is not 6.
        (
            "=6       4789     =2       14789    =5       479      1389     179      39 "
            "1789     5789     15789    1789     169      =3       1689     =4       =2 "
            "13789    4789     13489    14789    1469     =2       1689     15679    569 "
            "=4       =3       5679     1579     =2       =8       169      1569     569 "
            "789      =1       56789    34579    349      45679    =2       3569     48 "
            "289      25689    5689     13459    1349     4569     =7       13569    48 "
            "=5       4689     134689   =2       =7       149      3469     69       369 "
            "279      24679    4679     3459     349      459      4569     =8       =1 "
            "139      49       1349     =6       =8       1459     3459     =2       =7 "
        ),
        placements=(),
        eliminations=(("r6c2", 6),),
    ),
    Case(
        "Unit forcing chain",
        "..84...3....3.....9....157479...8........7..514.....2...9.6...2.5....4......9..56",
        # If r6c3 is 6, then r3c3 is not 6. If r6c6 is 6, then r3c4 is 6 (hidden single in column
        # 4), so r3c3 is not 6. Row 6's 6 is in r6c3 or r6c6: either way r3c3 is not 6.
        (
            "25       1267     =8       =4       257      2569     1269     =3       19 "
            "245      1267     147      =3       257      2569     12689    1689     189 "
            "=9       236      236      268      28       =1       =5       =7       =4 "
            "=7       =9       256      1256     1245     =8       136      146      13 "
            "238      2368     236      126      1234     =7       169      1469     =5 "
            "=1       =4       356      =9       35       356      78       =2       78 "
            "348      1378     =9       1578     =6       345      1378     18       =2 "
            "=6       =5       17       1278     1238     23       =4       189      13789 "
            "2348     12378    147      178      =9       34       1378     =5       =6 "
        ),
        placements=(),
        eliminations=(("r3c3", 6),),
    ),
    Case(
        "Forcing net by contradiction",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        # If r8c6 is 9, then r2c4 is 9 (hidden single in row 2), r8c5 is 3 (hidden single in row
        # 8), r6c5 is 9 (hidden single in column 5), r3c6 is 3 (hidden single in column 6), r1c9
        # is 3 (hidden single in row 1), r5c1 is 9 (hidden single in row 5), r1c4 is 8 (hidden
        # single in ... r9c8 has no digit left. That cannot be, so r8c6 is not 9.
        (
            "=1       2568     2468     458      345      =7       246      =9       346 "
            "457      =3       46       1459     =2       159      1467     467      =8 "
            "2478     278      =9       =6       134      138      =5       2347     134 "
            "2478     278      =5       =3       167      126      =9       4678     146 "
            "479      =1       34       579      =8       569      467      34567    =2 "
            "=6       2789     238      12579    1579     =4       178      3578     135 "
            "=3       25689    268      24578    45679    2568     2468     =1       4569 "
            "2589     =4       =1       2589     3569     235689   268      2568     =7 "
            "2589     25689    =7       12458    14569    12568    =3       24568    4569 "
        ),
        placements=(),
        eliminations=(("r8c6", 9),),
    ),
    Case(
        "Cell forcing chain",
        "8.9...3.....7.1...5.........7.....263...9.......1...4..6.2....4....8.5...........",
        # If r4c1 is 1, then r4c3 is 8 (naked single), r9c2 is 8 (hidden single in column 2), r6c2
        # is 5 (hidden single in column 2), so r6c2 is not 9. If r4c1 is 9, then r6c2 is not 9.
        # r4c1 is 1 or 9: either way r6c2 is not 9.
        (
            "=8       =1       =9       46       26       246      =3       57       57 "
            "246      234      2346     =7       =5       =1       24       89       89 "
            "=5       24       =7       89       =3       89       246      16       12 "
            "19       =7       18       35       =4       35       189      =2       =6 "
            "=3       248      12468    68       =9       2678     178      1578     1578 "
            "269      2589     2568     =1       267      2678     789      =4       =3 "
            "179      =6       1358     =2       17       3579     178      13789    =4 "
            "12479    2349     1234     3469     =8       34679    =5       13679    1279 "
            "12479    234589   123458   34569    167      345679   26       136789   12789 "
        ),
        placements=(),
        eliminations=(("r6c2", 9),),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_technique_finds_the_exact_step(case: Case) -> None:
    step = FUNCTIONS[case.technique](case.candidates(), TABLES)
    assert step is not None
    assert step.technique == case.technique
    assert step.placements == tuple((_cell(c), d) for c, d in case.placements)
    assert step.eliminations == tuple((_cell(c), d) for c, d in case.eliminations)
    assert step.before == case.candidates()
    assert step.sentence.endswith(".")


@pytest.mark.parametrize("case", CASES, ids=str)
def test_case_is_sound(case: Case) -> None:
    solution = parse_puzzle(solve(case.puzzle).solution or "", GEO)
    cand = case.candidates()
    # The frozen position itself keeps every solution digit ...
    for cell, digit in enumerate(solution):
        assert cand.values[cell] == digit or cand.masks[cell] >> (digit - 1) & 1
    # ... and the step removes none.
    step = FUNCTIONS[case.technique](cand, TABLES)
    assert step is not None
    assert all(solution[c] != d for c, d in step.eliminations)
    assert all(solution[c] == d for c, d in step.placements)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_technique_stops_once_its_pattern_is_used_up(case: Case) -> None:
    """Applying the technique until it stops must end, with no repeat of a used step."""
    cand = case.candidates()
    seen: set[tuple[tuple[int, int], ...]] = set()
    # Forcing logic alone could go on to the solution; a few steps show it never repeats.
    forcing = "orcing" in case.technique
    for _ in range(5 if forcing else 200):
        step = FUNCTIONS[case.technique](cand, TABLES)
        if step is None:
            break
        key = step.placements + step.eliminations
        assert key not in seen
        assert key  # a step always changes something
        seen.add(key)
        cand = apply_step(cand, step, GEO)
    else:
        if forcing:
            return
        pytest.fail(f"{case.technique} kept firing")
    assert FUNCTIONS[case.technique](cand, TABLES) is None


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_nothing_fires_on_an_empty_grid(name: str) -> None:
    assert FUNCTIONS[name](pencil_marks([0] * 81, GEO), TABLES) is None


def test_every_ladder_technique_has_a_case_and_a_grade() -> None:
    # The killer rungs need a board with cages: tests/test_techniques_killer.py has theirs;
    # the rules' rungs a board with rules: tests/test_rule_steps.py has theirs.
    assert {c.technique for c in CASES} == set(FUNCTIONS) - KILLER - RULES
    assert set(FUNCTIONS) <= set(GRADE_OF)
    # Verity nets share every line with the verity chains (locked=True adds pointing in the
    # branches); no position of the test sets makes one the cheapest step, so no case.
    assert set(GRADE_OF) - set(FUNCTIONS) == {
        "Guess",
        "Contradiction",
        "Cell forcing net",
        "Unit forcing net",
    }


def _case(name: str) -> Case:
    return next(c for c in CASES if c.technique == name)


def test_hidden_single_ignores_a_digit_with_two_places() -> None:
    # Column 2 of the hidden-single position has 4 only in r6c2; give r7c2 a 4 as well and
    # the column no longer forces it (other houses may still: the step must not be this one).
    cand = _case("Hidden single").candidates()
    masks = list(cand.masks)
    masks[_cell("r7c2")] |= 1 << 3
    step = FUNCTIONS["Hidden single"](Candidates(cand.values, tuple(masks)), TABLES)
    assert step is None or step.houses[0].name != "column 2"


def test_unique_rectangle_needs_two_boxes() -> None:
    # Move the UR position's rectangle so its four corners sit in one box: no deduction.
    cand = _case("Unique rectangle").candidates()
    masks = [0] * 81
    values = [1] * 81
    for name in ("r1c1", "r1c2", "r2c1"):
        masks[_cell(name)] = 0b11000000  # 7 or 8
        values[_cell(name)] = 0
    masks[_cell("r2c2")] = 0b11000100
    values[_cell("r2c2")] = 0
    assert unique_rectangle(Candidates(tuple(values), tuple(masks)), TABLES) is None
    assert unique_rectangle(cand, TABLES) is not None


@pytest.mark.parametrize("name", sorted(UNIQUENESS))
def test_uniqueness_techniques_are_skipped_when_not_known_unique(name: str) -> None:
    # Each case is where the ladder reached the technique: it is the next step, unless the
    # puzzle is not known to have one solution.
    cand = _case(name).candidates()
    step = next_step(cand, GEO)
    assert step is not None and step.technique == name
    step = next_step(cand, GEO, unique=False)
    assert step is None or step.technique not in UNIQUENESS


def test_step_is_frozen() -> None:
    step = FUNCTIONS["Naked single"](_case("Naked single").candidates(), TABLES)
    assert isinstance(step, Step)
    with pytest.raises(AttributeError):
        step.technique = "x"  # type: ignore[misc]


def test_forcing_chain_does_not_fire_where_only_a_net_reaches() -> None:
    # The net's branch needs locked candidates (pointing) on its way: singles alone stall.
    cand = _case("Forcing net by contradiction").candidates()
    assert forcing_chain(cand, TABLES) is None
    assert FUNCTIONS["Forcing net by contradiction"](cand, TABLES) is not None


def test_forcing_leaves_big_grids_to_the_guess() -> None:
    # A 16x16 position has too many branches for a page's deadline (see techniques/forcing).
    geo = standard(16)
    assert forcing_chain(pencil_marks([0] * 256, geo), tables_for(geo)) is None


@pytest.mark.parametrize("name", ["XY-chain", "X-chain", "Alternating chain"])
def test_chain_steps_carry_their_links_for_drawing(name: str) -> None:
    cand = _case(name).candidates()
    step = FUNCTIONS[name](cand, TABLES)
    assert step is not None and step.links
    # The links follow on from each other, strong first, then weak and strong in turn ...
    for (_, end, _), (start, _, _) in zip(step.links, step.links[1:], strict=False):
        assert end == start
    assert [strong for _, _, strong in step.links] == [i % 2 == 0 for i in range(len(step.links))]
    for (a, da), (b, db), strong in step.links:
        if strong:  # ... a strong link: a two-candidate cell, or a digit's two places in a house
            assert (a == b and cand.masks[a].bit_count() == 2) or (
                da == db
                and any(
                    a in h and b in h and sum(cand.masks[c] >> (da - 1) & 1 for c in h) == 2
                    for h in TABLES.house_cells
                )
            )
        else:  # ... a weak link: one cell, or one digit in cells that see each other
            assert a == b or (da == db and TABLES.sees(a, b))
    # ... and every chain ends on candidates the eliminated ones contradict.
    first, last = step.links[0][0], step.links[-1][1]
    for cell, digit in step.eliminations:
        for c, d in (first, last):
            assert (cell == c and digit != d) or (digit == d and TABLES.sees(cell, c))


def test_other_steps_have_no_links() -> None:
    step = FUNCTIONS["Hidden single"](_case("Hidden single").candidates(), TABLES)
    assert step is not None and step.links == ()


def test_empty_rectangle_needs_its_strong_link() -> None:
    # A third 4 in row 1 (r1c2) breaks the strong link r1c3-r1c8: r9c8 keeps its 4.
    cand = _case("Empty rectangle").candidates()
    masks = list(cand.masks)
    masks[_cell("r1c2")] |= 1 << 3
    step = FUNCTIONS["Empty rectangle"](Candidates(cand.values, tuple(masks)), TABLES)
    assert step is None or (_cell("r9c8"), 4) not in step.eliminations


@pytest.mark.parametrize("locked", [False, True], ids=["chain", "net"])
def test_fast_branches_agree_with_the_told_ones(locked: bool) -> None:
    # The bit-state propagation finds the steps; the recorded one tells them. On every
    # candidate of a hard position they must agree on contradictions and placements.
    from sudoku_web.core.techniques.forcing import _Record
    from sudoku_web.core.techniques.propagation import net_tables, propagate, state_of

    cand = _case("Forcing net by contradiction").candidates()
    nt = net_tables(GEO)
    x, d = state_of(nt, cand.values, cand.masks)
    broken = 0
    for cell in range(81):
        for digit in cand.digits(cell):
            fast = propagate(nt, x, d, cell * 9 + digit - 1, locked)
            told = _Record(cand, TABLES, locked)
            assert fast.broken == (told.follow(cell, digit) is not None)
            broken += fast.broken
            if not fast.broken:
                placed = {(c // 10, c % 10 + 1) for c in range(810) if fast.placed[-1] >> c & 1}
                assert placed == set(told.placed_by)
    # Singles alone find no contradiction here; with locked candidates some branches break.
    assert bool(broken) == locked


def test_als_xz_needs_a_restricted_common_digit() -> None:
    # A 3 in r4c7 as well: row 4's set keeps its digits, but that 3 does not see column 5's
    # 3s, so 3 no longer links the two sets (and no other pair of sets does).
    cand = _case("ALS-XZ").candidates()
    masks = list(cand.masks)
    masks[_cell("r4c7")] |= 1 << 2
    assert FUNCTIONS["ALS-XZ"](Candidates(cand.values, tuple(masks)), TABLES) is None

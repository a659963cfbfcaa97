"""Which command families can read a line, told from its first tokens, in BCDice's order.

BCDice tries every family on every line; most fail at once, but each failure costs a parse. Here the
leading token (after an optional secret `S`) names the few families that can possibly read the line:

    a digit or `(`   AddDice, then the family of the letter right after the first term:
                     `B` BarabaraDice, `T` TallyDice, `R` RerollDice, `U` UpperDice (`3B6`, `(1+2)U6`)
    `+` or `-`       AddDice                            `D`  AddDice, D66Dice
    `choice`         Choice                             `C`  Calc
    `x` or `r`       Repeat                             anything else: no family

Families left out are exactly those that would return None without raising: xBy, xTYy, xRy and xUy
all read their first term with the same `parse_term` and then need their letter, and a limit that
term meets (too many digits, too deep) AddDice — first in BCDice's order, and reading a superset of
`parse_term` — meets at the same token. So the order of the families kept, and which one raises
first, are BCDice's (a test compares this with trying every family on many lines).
"""

from __future__ import annotations

from parser.bcdice.lexer import NUMBER, RUBY_SPACE, tokenize

# Indices into parser.bcdice.FAMILIES (BCDice's order).
ADD, BARABARA, TALLY, CALC, CHOICE, D66, REPEAT, REROLL, UPPER = range(9)

_AFTER_FIRST_TERM = {"B": (ADD, BARABARA), "T": (ADD, TALLY), "R": (ADD, REROLL), "U": (ADD, UPPER)}
_BY_FIRST = {
    "+": (ADD,),
    "-": (ADD,),
    "D": (ADD, D66),
    "C": (CALC,),
    "X": (REPEAT,),
    "R": (REPEAT,),
}


def candidates(line: str) -> tuple[int, ...]:
    """The families (indices, in BCDice's order) that may read the (normalised) line."""
    rest = line.lstrip(RUBY_SPACE)
    if rest[:1] in ("S", "s"):
        rest = rest[1:]
    first = rest[:1]
    if "0" <= first <= "9" or first == "(":
        return _after_first_term(line)
    first = first.upper()
    if first == "C" and rest[:6].lower() == "choice":
        return (CHOICE,)
    return _BY_FIRST.get(first, ())


def _after_first_term(line: str) -> tuple[int, ...]:
    tokens = tokenize(line)
    index = 1 if tokens and tokens[0].kind == "S" else 0
    if tokens[index].kind == NUMBER:
        index += 1
    else:  # `(`: the first term ends at its matching `)`
        depth = 0
        while index < len(tokens):
            kind = tokens[index].kind
            index += 1
            if kind == "(":
                depth += 1
            elif kind == ")":
                depth -= 1
                if depth == 0:
                    break
        else:
            return (ADD,)
    letter = tokens[index].kind if index < len(tokens) else ""
    return _AFTER_FIRST_TERM.get(letter, (ADD,))

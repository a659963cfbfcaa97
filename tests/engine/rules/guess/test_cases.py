"""The case files of engine/rules/guess/cases, run from the game's own tests (tests/case_files.py reads them)."""

from tests.case_files import case_test

test_case = case_test("guess")

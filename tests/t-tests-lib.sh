# t-tests-lib.sh — the test helpers themselves. Test plan:
#   tests-lib-1.x  need: a missing tool stops the test with a "not ok" that
#                  names the tool and how to install it, exit 1; a present
#                  tool lets it go on
. "$ROOT/tests/lib.sh"

printf '. "%s/tests/lib.sh"\nneed no-such-tool-rl9 rl9-pkg\necho "after need"\n' "$ROOT" >uses-missing.sh
printf '. "%s/tests/lib.sh"\nneed sh dash\necho "after need"\n' "$ROOT" >uses-present.sh
expect_code tests-lib-1.1 "a missing tool: exit 1" 1 sh uses-missing.sh
expect_eq tests-lib-1.2 "says which tool and how to get it, and stops there" \
	"not ok need-no-such-tool-rl9 - uses-missing needs no-such-tool-rl9, which is not installed
#   install it: sh scripts/deps.sh (as root), or apt-get install rl9-pkg" "$out"
expect_code tests-lib-1.3 "a present tool: the test goes on" 0 sh uses-present.sh
expect_eq tests-lib-1.4 "(and prints nothing of its own)" "after need" "$out"

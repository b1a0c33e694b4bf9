# demo/: the README's demonstration program (built and run by scripts/demo.sh).
EXTRA_DIST += demo/demo.c demo/run-demo.sh

# The generated corpora of the benchmarks (../shared/bench/gen_corpus.py), by name; sourced
# by bench.sh and instructions.sh. `corpus_counts NAME` sets $articles and $assignments.
corpus_counts() {
    case $1 in
        small) articles=100; assignments=500 ;;
        medium) articles=1000; assignments=5000 ;;
        large) articles=10000; assignments=50000 ;;
        articles) articles=10000; assignments=0 ;;
        *) echo "unknown corpus '$1' (small, medium, large, articles)"; exit 2 ;;
    esac
}

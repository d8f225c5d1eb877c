#!/usr/bin/env bash
# Frame cost of every panel presented alone, at its default parameters and at its largest ones:
# `pelab --bench-frames` (pos A and the pair move every frame, so caching alone does not help),
# CPU median and p99 per frame, and the share spent in pelab_core. Prints a Markdown table for
# docs/performance.md. The panel list comes from the app (`pelab screenshot --help`).
# Usage: bench/panel_frames.sh [PELAB] [FRAMES]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pelab=${1:-$root/build/bin/pelab}
frames=${2:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() { # scene-file → "median p99 core"
    local out
    if [ -n "${DISPLAY:-}" ]; then out=$("$pelab" --scene "$1" --bench-frames "$frames" 2>&1)
    else out=$(xvfb-run -a -s "-screen 0 1920x1080x24" "$pelab" --scene "$1" --bench-frames "$frames" 2>&1); fi
    local cpu core
    cpu=$(grep -m1 '^CPU time per frame' <<<"$out" | sed -E 's/.*median ([0-9.]+) +p99 ([0-9.]+).*/\1 \2/')
    core=$(grep -m1 '^core (pelab_core)' <<<"$out" | sed -E 's/.*median ([0-9.]+).*/\1/')
    echo "$cpu $core"
}
# The largest parameters each panel takes (the scene fields' upper ends).
largest() {
    case "$1" in
    heatmap) echo '"heatmap_max_len": 65536' ;;
    calculator) echo '"calculator_dim_from": 0, "calculator_dim_to": 4095' ;;
    worked) echo '"worked_d_model": 16, "worked_sentence": "a b c d e f g h i j k l m n o p"' ;;
    rotation) echo '"rotation_max_k": 500, "rotation_len": 4096' ;;
    candidates) echo '"candidates_length": 4096, "candidates_positions": 4096, "candidates_shift_k": 64' ;;
    order) echo '"order_d_model": 64, "sentence_a": "the quick brown fox jumps over the lazy dog and the cat sat on the mat again now", "sentence_b": "now again mat the on sat cat the and dog lazy the over jumps fox brown quick the"' ;;
    *) echo '"many_waves": true' ;;
    esac
}
panels=$("$pelab" panels | grep -v '^ ' | cut -d' ' -f1) # the registry's ids, in menu order
echo "| panel | default (d 512): CPU median (p99) | core | largest (d 4 096): CPU median (p99) | core |"
echo "|---|---:|---:|---:|---:|"
for panel in $panels; do
    extra=$(largest "$panel")
    [ "$panel" = waves ] || extra="$extra"
    echo "{\"format\": \"pelab-scene\", \"presented_panel\": \"$panel\"}" >"$work/default.json"
    echo "{\"format\": \"pelab-scene\", \"presented_panel\": \"$panel\", \"d_model\": 4096, $extra}" >"$work/largest.json"
    read -r dm dp dc <<<"$(run "$work/default.json")"
    read -r lm lp lc <<<"$(run "$work/largest.json")"
    echo "| $panel | $dm ms ($dp) | $dc ms | $lm ms ($lp) | $lc ms |"
    if [ "$panel" = alternatives ]; then
        for tab in rope alibi t5 scaling table; do
            echo "{\"format\": \"pelab-scene\", \"presented_panel\": \"alternatives\", \"alternatives_tab\": \"$tab\"}" >"$work/default.json"
            echo "{\"format\": \"pelab-scene\", \"presented_panel\": \"alternatives\", \"alternatives_tab\": \"$tab\", \"d_model\": 4096, \"alibi_heads\": 64, \"t5_buckets\": 128, \"t5_max_distance\": 4096, \"scaling_d\": 1024}" >"$work/largest.json"
            read -r dm dp dc <<<"$(run "$work/default.json")"
            read -r lm lp lc <<<"$(run "$work/largest.json")"
            echo "| alternatives ($tab) | $dm ms ($dp) | $dc ms | $lm ms ($lp) | $lc ms |"
        done
    fi
done

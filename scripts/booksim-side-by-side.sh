#!/usr/bin/env bash
# The flit-level simulator against BookSim2, side by side: the four BookSim-matched runs of
# docs/PERFORMANCE.md ("BookSim2 side by side"), 8x8 and 16x16 at mid-load and at saturation.
# Each binary runs each setup three times, interleaved; the script prints each one's cycles per
# CPU-second (user + system time, the median of the three) and their ratio.
#
# usage: scripts/booksim-side-by-side.sh BOOKSIM [MESHCAST]
#   BOOKSIM   a BookSim2 binary (github.com/booksim/booksim2, built with its own Makefile)
#   MESHCAST  defaults to target/release/meshcast (cargo build --release first)
#
# Run it on an otherwise idle machine: the two simulators are timed one after the other, both on
# the same CPU (CPU 0, or $SIDE_BY_SIDE_CPU; `taskset`, where there is one), since the CPUs of a
# shared machine may run at different speeds.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  sed -n '7,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
booksim=$1
meshcast=${2:-target/release/meshcast}
for bin in "$booksim" "$meshcast"; do
  [ -x "$bin" ] || { echo "error: '$bin' is not an executable file" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "error: /usr/bin/time (GNU time) is needed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# BookSim's matched router (docs/SIMULATOR.md): one virtual channel of 8 flits, a 5-cycle
# pipeline, 20-flit packets, uniform Bernoulli traffic; a warm-up period and three measured
# periods of SAMPLE cycles, then its drain.
booksim_config() { # K RATE SAMPLE
  cat <<EOF
topology = mesh;
n = 2;
k = $1;
routing_function = dor;
router = iq;
num_vcs = 1;
vc_buf_size = 8;
routing_delay = 1;
vc_alloc_delay = 1;
sw_alloc_delay = 1;
st_prepare_delay = 1;
st_final_delay = 1;
packet_size = 20;
traffic = uniform;
injection_process = bernoulli;
injection_rate = $2;
injection_rate_uses_flits = 1;
sim_type = throughput;
warmup_periods = 1;
max_samples = 10;
stopping_thres = -1.0;
acc_stopping_thres = -1.0;
seed = 1;
sample_period = $3;
EOF
}

# Both simulators on one CPU (taskset replaces itself with the command it runs).
pin=()
if command -v taskset >/dev/null; then
  pin=(taskset -c "${SIDE_BY_SIDE_CPU:-0}")
fi

# CPU seconds (user + system) of the command, its output to FILE.
cpu() { # FILE COMMAND...
  local out=$1
  shift
  /usr/bin/time -f '%U %S' -o "$work/time" ${pin[@]+"${pin[@]}"} "$@" >"$out" 2>&1 || true
  tail -n 1 "$work/time" | awk '{ printf "%.2f", $1 + $2 }'
}

median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }

printf '%-6s %-6s %9s %8s %12s %9s %8s %12s %6s\n' mesh load "BookSim" "CPU s" "cycles/s" \
  meshcast "CPU s" "cycles/s" ratio
# k, BookSim's load (flits per node per cycle), its sample period; meshcast's load (messages
# of 20 flits) and cycles (ten times BookSim's, in batches of one sample period).
for setup in "8 0.105 10000 0.00525 401000" "8 0.21 10000 0.0105 401000" \
  "16 0.05 5000 0.0025 201000" "16 0.10 5000 0.005 201000"; do
  set -- $setup
  k=$1 rate=$2 sample=$3 load=$4 cycles=$5
  booksim_config "$k" "$rate" "$sample" >"$work/matched.cfg"
  b=() m=()
  for _ in 1 2 3; do
    b+=("$(cpu "$work/booksim.out" "$booksim" "$work/matched.cfg")")
    m+=("$(cpu "$work/meshcast.json" "$meshcast" simulate -q -t "mesh:${k}x${k}" --load "$load" \
      --length 20 --startup 0 --vcs 1 --buffer 8 --pipeline 5 --port 1 --warmup "$sample" \
      --batch "$sample" --precision 0.000000001 --max-cycles "$cycles" --drain 1000 \
      --early-saturation 0 --max-backlog 1000000 --json)")
  done
  # BookSim exits with 255 after a successful run: read its cycle count instead.
  b_cycles=$(grep -o 'Time taken is [0-9]* cycles' "$work/booksim.out" | awk '{ print $4 }')
  m_cycles=$(grep -o '"cycles": *[0-9]*' "$work/meshcast.json" | grep -o '[0-9]*$')
  if [ -z "$b_cycles" ] || [ -z "$m_cycles" ]; then
    echo "error: a run of mesh ${k}x${k} at $rate failed; its output:" >&2
    cat "$work/booksim.out" "$work/meshcast.json" >&2
    exit 1
  fi
  bt=$(median "${b[@]}") mt=$(median "${m[@]}")
  awk -v k="$k" -v rate="$rate" -v bc="$b_cycles" -v bt="$bt" -v mc="$m_cycles" -v mt="$mt" \
    'BEGIN { printf "%-6s %-6s %9d %8.2f %12.0f %9d %8.2f %12.0f %5.0fx\n",
             k "x" k, rate, bc, bt, bc / bt, mc, mt, mc / mt, (mc / mt) / (bc / bt) }'
done

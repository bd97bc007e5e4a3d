cd /work/wt-framing && . .venv/bin/activate
uptime
for cfg in "--json orjson" "--json stdlib" "--json orjson --chunk 64 --n 10000" "--json stdlib --chunk 64 --n 10000"; do
  for pair in "/tmp/framing/tb /tmp/framing/t1 lever1" "/tmp/framing/tb /tmp/framing/t3 all-mine"; do
    set -- $pair
    r=$(python bench/ab.py $1 --b $2 --scenario text --n 20000 --rounds 15 $cfg 2>&1 | tail -1)
    echo "$cfg | $3 | $r"
  done
done
uptime

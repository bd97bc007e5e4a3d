cd /work/wt-framing && . .venv/bin/activate
uptime
for cfg in "--json orjson" "--json stdlib" "--json orjson --chunk 64 --n 10000" "--json stdlib --chunk 64 --n 10000"; do
  for pair in "/tmp/framing/tb /tmp/framing/t1 L1" "/tmp/framing/t1 /tmp/framing/t2 L2" "/tmp/framing/t2 /tmp/framing/t3 L3" "/tmp/framing/t3 /tmp/framing/t4 L4" "/tmp/framing/tb /tmp/framing/t4 mine" "/work/wt-before /tmp/framing/t4 stop"; do
    set -- $pair
    r=$(python bench/ab.py $1 --b $2 --scenario text --n 20000 --rounds 31 $cfg 2>&1 | tail -1 | sed 's/.*ratios //')
    echo "$cfg | $3 | $r"
  done
done
for sc in "--scenario function_call" "--scenario function_call --json stdlib" "--scenario reasoning" "--chat --scenario chat_text" "--chat --scenario chat_text --json stdlib" "--scenario text --no-events" "--scenario text_logprobs --n 5000"; do
  r=$(python bench/ab.py /tmp/framing/tb --b /tmp/framing/t4 --n 20000 --rounds 21 $sc 2>&1 | tail -1 | sed 's/.*ratios //')
  echo "$sc | mine | $r"
done
uptime

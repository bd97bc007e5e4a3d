#!/bin/sh
# fe8edcc (keyed-hash proofs) on main 5493f45: proof_attack, unit_cuts, share_fuzz; hash seed random (SipHash) and PYTHONHASHSEED=0 (SHA-256)
cd /tmp; R=/work/main/bench/stop-2026-12-02/review; PY="nice -n 19 /work/wt-review/.venv/bin/python"
PYTHONPATH=/tmp/f4_pp $PY -c "from sansio_responses import _base; print('KEYED_DIGEST (random seed):', _base.KEYED_DIGEST)"
PYTHONHASHSEED=0 PYTHONPATH=/tmp/f4_pp $PY -c "from sansio_responses import _base; print('KEYED_DIGEST (PYTHONHASHSEED=0):', _base.KEYED_DIGEST)"
SIZES=9000,15000 PYTHONPATH=/tmp/f4_pp $PY $R/proof_attack.py > /tmp/r2/pa_keyed.txt 2>/tmp/r2/pa_keyed.err
SIZES=9000,15000 PYTHONHASHSEED=0 PYTHONPATH=/tmp/f4_pp $PY $R/proof_attack.py > /tmp/r2/pa_sha.txt 2>/tmp/r2/pa_sha.err
SIZES=9000,15000 PYTHONPATH=/tmp/before_pp $PY $R/proof_attack.py > /tmp/r2/pa_before.txt 2>/tmp/r2/pa_before.err
echo "proof_attack keyed: $(cat /tmp/r2/pa_keyed.err) | sha: $(cat /tmp/r2/pa_sha.err) | before: $(cat /tmp/r2/pa_before.err)"
echo "proof_attack differing lines keyed/before $(diff /tmp/r2/pa_before.txt /tmp/r2/pa_keyed.txt | grep -c '^>') sha/before $(diff /tmp/r2/pa_before.txt /tmp/r2/pa_sha.txt | grep -c '^>')"
/work/notes/review2/run_uc.sh 5 20000
PYTHONHASHSEED=0 /work/notes/review2/run_uc.sh 6 10000
/work/notes/review2/run_share.sh 5 150
echo queue_c done

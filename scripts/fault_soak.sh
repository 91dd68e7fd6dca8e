#!/usr/bin/env bash
# The fault campaign's soak (docs/RELIABILITY.md): the issue's 200,000-row import, 30 kill -9 and, on a
# server, 3 drops of the desk's sessions, on each back-end named (default all three), one seed for all.
# Usage: scripts/fault_soak.sh [BACKENDS] [SEED]    e.g. scripts/fault_soak.sh postgresql,mariadb 12
# Sizes: BATCHDESK_CAMPAIGN_ROWS (200000), _KILLS (30), _DROPS (3). Prints one figures line per back-end.
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=offscreen
export BATCHDESK_TEST_BACKENDS=${1:-sqlite,postgresql,mariadb}
export BATCHDESK_CAMPAIGN_SEED=${2:-$(date +%s)}
export BATCHDESK_CAMPAIGN_ROWS=${BATCHDESK_CAMPAIGN_ROWS:-200000}
export BATCHDESK_CAMPAIGN_KILLS=${BATCHDESK_CAMPAIGN_KILLS:-30}
export BATCHDESK_CAMPAIGN_DROPS=${BATCHDESK_CAMPAIGN_DROPS:-3}
exec .venv/bin/python -m pytest -q -s -p no:cacheprovider tests/integration/test_fault_campaign.py

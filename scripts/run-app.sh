#!/usr/bin/env bash
# Opens the Workbench window. On a machine without a display it starts Xvfb (the window is
# then visible only to screenshots: `import -display $DISPLAY -window root shot.png`); without
# a Secret Service on the session bus it starts a private unlocked keyring for this session.
set -euo pipefail
APP="${1:?usage: run-app.sh PATH_TO_APP}"
cd "$(dirname "$0")/.."
if [[ -z "${DISPLAY:-}" ]]; then
  echo "run-app: no display; starting Xvfb. Screenshot with: import -display \$DISPLAY -window root shot.png"
fi
exec scripts/with-keyring.sh scripts/with-display.sh bash -c 'echo "run-app: DISPLAY=$DISPLAY, data in ${WORKBENCH_DATA_DIR:-~/.local/share/workbench}"; exec "$0"' "$APP"

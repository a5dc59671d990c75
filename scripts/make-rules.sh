#!/usr/bin/env bash
# Writes docs/RULES.md from the rule catalogue (Sources/ShadeCore/Rules/RuleCatalogue.swift), as
# `shade explain --markdown` prints it. A test fails while the two disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
swift run -q shade explain --markdown > docs/RULES.md
echo "wrote docs/RULES.md"

#!/usr/bin/env bash
# Writes Sources/Basics/HTMLEntityTable+Generated.swift from the HTML standard's table of named character
# references (https://html.spec.whatwg.org/entities.json): one line per name, `name=code points in hex`, sorted.
# Usage: Sources/Basics/Generators/html-entities.sh [entities.json]   (without a file, it is downloaded)
set -euo pipefail
cd "$(dirname "$0")/.."
source="${1:-}"
if [ -z "$source" ]; then
    source="$(mktemp)"
    trap 'rm -f "$source"' EXIT
    curl -fsSL https://html.spec.whatwg.org/entities.json -o "$source"
fi
python3 - "$source" > "HTMLEntityTable+Generated.swift.new" <<'PYTHON'
import json, sys
table = json.load(open(sys.argv[1]))
names = sorted(name[1:] for name in table)
print("// The named character references of HTML (https://html.spec.whatwg.org/multipage/named-characters.html):")
print("// data, not code. Each line is `name=code points in hex`; names without a trailing \";\" are the legacy")
print(f"// forms HTML still accepts. Generated from the HTML standard's table ({len(names)} names) by")
print("// Generators/html-entities.sh: edit that, not this.")
print()
print("enum HTMLEntityTable {")
print('    static let data = """')
for name in names:
    points = " ".join(format(point, "X") for point in table["&" + name]["codepoints"])
    print(f"        {name}={points}")
print('        """')
print("}")
PYTHON
mv "HTMLEntityTable+Generated.swift.new" "HTMLEntityTable+Generated.swift"
echo "wrote Sources/Basics/HTMLEntityTable+Generated.swift"

#!/usr/bin/env bash
# Writes Sources/Checks/LanguageCodes+Generated.swift from ISO 639-2 as Debian's iso-codes package ships it
# (/usr/share/iso-codes/json/iso_639-2.json): the two-letter ISO 639-1 codes, and the three-letter ISO 639-2 codes
# (terminology and bibliographic forms) of the languages that have one — the codes caption file names carry.
# Usage: Sources/Checks/Generators/language-codes.sh [iso_639-2.json]
set -euo pipefail
cd "$(dirname "$0")/.."
source="${1:-/usr/share/iso-codes/json/iso_639-2.json}"
python3 - "$source" > "LanguageCodes+Generated.swift.new" <<'PYTHON'
import json, sys
languages = [entry for entry in json.load(open(sys.argv[1]))["639-2"] if "alpha_2" in entry]
two = sorted({entry["alpha_2"] for entry in languages})
three = sorted({entry["alpha_3"] for entry in languages} | {entry["bibliographic"] for entry in languages if "bibliographic" in entry})
def lines(codes):
    return ["        " + " ".join(codes[i:i + 24]) for i in range(0, len(codes), 24)]
print("// The language codes of ISO 639 that caption file names carry: data, not code. Generated from ISO 639-2 as")
print(f"// Debian's iso-codes package ships it ({len(two)} languages with a two-letter code) by")
print("// Generators/language-codes.sh: edit that, not this.")
print()
print("enum LanguageCodes {")
print("    /// ISO 639-1: the two-letter codes.")
print('    static let twoLetter = """')
print("\n".join(lines(two)))
print('        """')
print("    /// ISO 639-2, terminology and bibliographic forms, of the languages with a two-letter code.")
print('    static let threeLetter = """')
print("\n".join(lines(three)))
print('        """')
print("}")
PYTHON
mv "LanguageCodes+Generated.swift.new" "LanguageCodes+Generated.swift"

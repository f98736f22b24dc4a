import ArgumentParser
import Checks
import Findings
import Findings
import Reports

/// The output formats of the check commands (`flash`, `sync` …).
enum CheckFormat: String, ExpressibleByArgument, CaseIterable { case text, json, jsonl, sarif, junit, html }

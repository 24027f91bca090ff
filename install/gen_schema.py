#!/usr/bin/env python3
"""Copies json/schema/config.schema.json for installation with its "$id" set to where it is installed
(file://PREFIX/DATADIR/crashtest/schema/config.schema.json): a URI that resolves on the machine that has crashtest,
so editors and validators can fetch it by its $id.

Usage: gen_schema.py INPUT OUTPUT ID"""
import json
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, output, schema_id = sys.argv[1:]
    with open(source, encoding="utf-8") as f:
        schema = json.load(f)
    # Keep "$schema" and "$id" first, as schema authors and tools expect.
    ordered = {"$schema": schema.pop("$schema"), "$id": schema_id}
    schema.pop("$id", None)
    ordered.update(schema)
    with open(output, "w", encoding="utf-8") as f:
        json.dump(ordered, f, indent=2, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()

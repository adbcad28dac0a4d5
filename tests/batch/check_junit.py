"""Checks a JUnit XML file as CI test reporters read it: well-formed, one testsuites root holding
testsuite elements of testcase elements, and the tests/failures/errors counts both declared and counted.
Usage: check_junit.py FILE TESTS FAILURES ERRORS"""
import sys
import xml.etree.ElementTree as ET


def main():
    path, tests, failures, errors = sys.argv[1], *map(int, sys.argv[2:5])
    root = ET.parse(path).getroot()
    assert root.tag == "testsuites", root.tag
    suites = root.findall("testsuite")
    assert len(suites) == 1, len(suites)
    cases = suites[0].findall("testcase")
    counted = (len(cases),
               sum(1 for c in cases if c.find("failure") is not None),
               sum(1 for c in cases if c.find("error") is not None))
    for element in (root, suites[0]):
        declared = tuple(int(element.get(k)) for k in ("tests", "failures", "errors"))
        assert declared == counted, (element.tag, declared, counted)
    assert counted == (tests, failures, errors), (counted, (tests, failures, errors))
    for c in cases:
        assert c.get("classname") and c.get("name"), c.attrib
        for child in c:
            assert child.tag in ("failure", "error", "system-out"), child.tag
            if child.tag != "system-out":
                assert child.get("message") and child.get("type"), child.attrib


if __name__ == "__main__":
    main()

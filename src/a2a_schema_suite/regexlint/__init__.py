"""Static checks on the regular expressions of schemas (``pattern``, ``patternProperties``).

JSON Schema patterns are ECMA-262 regular expressions, but this tool (like most validators) runs
them on a backtracking engine, Python's :mod:`re`. Two things can go wrong:

- **exponential backtracking**: a pattern such as ``^(a+)+$`` lets one string be matched in
  exponentially many ways, so a 30-character input that almost matches (``"a" * 30 + "!"``) takes
  hours. :func:`~a2a_schema_suite.regexlint.findings.analyse` finds these precisely: it builds the
  pattern's position automaton and looks for a state with two different loops over the same
  string (the "exponential degree of ambiguity" criterion), and reports the string that can be
  pumped. ``(ab+)+`` and ``(a|ab)*``, which only look dangerous, are not reported. The analysis
  does not cover the blow-up of large *bounded* repetitions (``(a?){25}a{25}``),
  back-references or quadratic (polynomial) behaviour.
- **portability**: Python's ``re`` does not read every pattern the way ECMA-262 does. ``$`` also
  matches before a final newline (``"1.0\\n"`` passes ``^[0-9]+\\.[0-9]+$`` in Python, not in
  JavaScript), ``.`` also matches ``\\r``, ``\\u2028`` and ``\\u2029``, ``\\d``, ``\\w``, ``\\s`` and ``\\b``
  are Unicode-aware, and some syntax exists in only one of the two.

The schema store refuses schemas with an exponential pattern (so ``run`` and ``validate`` report
them as errored instead of hanging); linters can report every finding. This package depends on
nothing else in the package but :mod:`a2a_schema_suite.schemawalk` (the walk that finds a
schema's patterns). Its modules, each with one job:

- :mod:`~a2a_schema_suite.regexlint.charsets`: character sets as code point ranges;
- :mod:`~a2a_schema_suite.regexlint.ecma`: reading an ECMA-262 pattern (the parse tree, where
  Python reads it differently) and rewriting it for Python's ``re`` (:func:`ecma_pattern`);
- :mod:`~a2a_schema_suite.regexlint.automaton`: the pattern's position automaton;
- :mod:`~a2a_schema_suite.regexlint.ambiguity`: the search for exponential ambiguity in it;
- :mod:`~a2a_schema_suite.regexlint.timing`: a match run under a time limit;
- :mod:`~a2a_schema_suite.regexlint.findings`: the findings of a pattern and of a schema.
"""

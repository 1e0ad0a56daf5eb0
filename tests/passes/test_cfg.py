"""The control-flow graph and dominator tree of :mod:`spvbuild.passes.cfg`: dominance and
dominance frontiers checked against their definitions (a block dominates another when
removing it cuts every path from the entry) on every function of the real modules, and
the enclosing construct of each block of a hand-written nest."""

from __future__ import annotations

import pytest

from spvbuild.passes import Program
from spvbuild.passes.cfg import Graph, dominator_tree, graph, iterated_frontier
from spvbuild.passes.program import split
from tests.passes.corpus import real_modules
from tests.passes.helpers import program
from tests.passes.kernels import compiled_kernels


def _reached(cfg: Graph, without: int | None) -> set[int]:
    """The blocks a path from the entry reaches that does not pass ``without``."""
    if cfg.entry == without:
        return set()
    seen = {cfg.entry}
    stack = [cfg.entry]
    while stack:
        for nxt in cfg.succs[stack.pop()]:
            if nxt != without and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def test_dominance_and_frontiers_by_their_definitions(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    functions = 0
    blocks = 0
    workdir = tmp_path_factory.mktemp("cfg")
    modules = [(m.name, m.words) for m in real_modules(workdir)]
    modules += [(f"kernel/{name}", tuple(w)) for name, w in compiled_kernels(workdir).items()]
    for name, words in modules:
        for function in split(Program.from_words(words), "test").functions:
            if not function.blocks:
                continue
            cfg = graph(function)
            tree = dominator_tree(cfg)
            live = _reached(cfg, None)
            assert set(tree.order) == live
            dominated = {d: live - _reached(cfg, d) for d in live}  # d dominates them
            for d in live:
                for b in cfg.blocks:
                    assert tree.dominates(d, b) == (b in dominated[d]), (name, d, b)
            front = tree.frontiers()
            for d in live:
                expected = {
                    b
                    for b in live
                    if any(p in dominated[d] for p in cfg.preds[b])
                    and (b == d or b not in dominated[d])
                }
                assert front[d] == expected, (name, d)
            functions += 1
            blocks += len(cfg.blocks)
    assert functions > 250 and blocks > 500


NEST = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%c = OpConstantTrue %bool
%main = OpFunction %void None %fn
%10 = OpLabel
OpBranch %20
%20 = OpLabel
OpLoopMerge %90 %80 None
OpBranch %30
%30 = OpLabel
OpSelectionMerge %60 None
OpBranchConditional %c %40 %50
%40 = OpLabel
OpBranch %60
%50 = OpLabel
OpBranchConditional %c %90 %60
%60 = OpLabel
OpBranch %80
%80 = OpLabel
OpBranch %20
%90 = OpLabel
OpReturn
%99 = OpLabel
OpBranch %90
OpFunctionEnd
"""


def test_enclosing_construct_of_each_block() -> None:
    function = split(program(NEST), "test").functions[0]
    structured = dominator_tree(graph(function, structured=True))
    enclosing = {label: structured.enclosing_header(label) for label in structured.graph.blocks}
    assert enclosing == {
        10: None,
        20: None,  # the loop's own header is not inside it
        30: 20,
        40: 30,
        50: 30,
        60: 20,  # a merge block is outside its construct
        80: 20,  # the continue construct is part of the loop
        90: None,
        99: None,  # no path reaches it
    }
    cfg = graph(function)
    tree = dominator_tree(cfg)
    assert tree.dominates(50, 90)  # only the break reaches the loop's merge
    assert not tree.reaches(99) and not tree.dominates(10, 99)
    assert cfg.named_by_merges() == {60, 80, 90}
    # where a value stored in 40 or 50 meets others: the selection's merge and the loop's
    # header (around the back edge); not the loop's merge, which only 50 reaches
    assert iterated_frontier(tree.frontiers(), [40, 50]) == {60, 20}


def test_graph_of_a_function_without_blocks() -> None:
    text = """OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpFunction %void None %fn
OpFunctionEnd
"""
    function = split(program(text), "test").functions[0]
    tree = dominator_tree(graph(function))
    assert tree.order == [] and tree.frontiers() == {}

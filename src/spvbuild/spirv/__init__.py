"""The bottom layer: the vocabulary every other room of spvbuild speaks.

Ids (:mod:`~spvbuild.spirv.ids`), the instruction record
(:mod:`~spvbuild.spirv.instruction`), the shapes of the generated tables
(:mod:`~spvbuild.spirv.tables`), enumerant parameters (:mod:`~spvbuild.spirv.params`),
literal strings (:mod:`~spvbuild.spirv.strings`) and numbers
(:mod:`~spvbuild.spirv.numbers`), the checks of builder arguments and the user's call
site (:mod:`~spvbuild.spirv.arguments`, :mod:`~spvbuild.spirv.word_checks`,
:mod:`~spvbuild.spirv.call_site`), and the emission contract the generated builder
methods call (:mod:`~spvbuild.spirv.emission`).  It imports nothing from the rest of
spvbuild but its errors.
"""

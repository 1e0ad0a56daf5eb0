"""Every core operand-kind enum and enumerant-parameter class, for ``from spvbuild.enums import *``.

The classes live in the generated module ``spvbuild.generated.core.enums``; this module
only re-exports them under a short, stable name.
"""

from spvbuild.generated.core.enums import *  # noqa: F403
from spvbuild.generated.core.enums import __all__ as __all__

#include "core/report/detail/Content.h"

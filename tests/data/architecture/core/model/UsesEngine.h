#pragma once
#include "core/estimate/Plan.h"

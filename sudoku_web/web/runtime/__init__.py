"""What every request runs within: the core called under budgets, the cache and its
memos, limits, security headers, error pages and the speed tricks."""

"""gunicorn configuration for sudoku-web, the same settings ``sudoku-web serve`` uses.

    gunicorn -c python:sudoku_web.hosting.gunicorn_conf 'sudoku_web:create_app()'

Values come from :func:`sudoku_web.hosting.serve.settings_from_env` (defaults plus ``SUDOKU_WEB_*``
environment variables), so there is one list of defaults. gunicorn reads the module-level
names below; command-line flags given to gunicorn still win over them.
"""

from __future__ import annotations

from sudoku_web.hosting.serve import HOOKS, mark_production, settings_from_env

# The app is created after this file is read (in the master with preload_app), so the
# production checks see this.
mark_production()

_settings = settings_from_env()

bind = _settings["bind"]
workers = _settings["workers"]
threads = _settings["threads"]
worker_connections = _settings["worker_connections"]
timeout = _settings["timeout"]
graceful_timeout = _settings["graceful_timeout"]
keepalive = _settings["keepalive"]
max_requests = _settings["max_requests"]
max_requests_jitter = _settings["max_requests_jitter"]
preload_app = _settings["preload_app"]
accesslog = _settings["accesslog"]
errorlog = _settings["errorlog"]
loglevel = _settings["loglevel"]
forwarded_allow_ips = _settings["forwarded_allow_ips"]
forwarder_headers = _settings["forwarder_headers"]
header_map = _settings["header_map"]
limit_request_line = _settings["limit_request_line"]
limit_request_fields = _settings["limit_request_fields"]
limit_request_field_size = _settings["limit_request_field_size"]
control_socket_disable = _settings["control_socket_disable"]
# The server hooks, the same functions sudoku-web serve sets.
on_starting = HOOKS["on_starting"]
pre_fork = HOOKS["pre_fork"]
post_worker_init = HOOKS["post_worker_init"]
post_request = HOOKS["post_request"]

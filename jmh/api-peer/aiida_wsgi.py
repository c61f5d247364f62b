"""aiida-core's REST API as a WSGI application, for a production WSGI server:

  AIIDA_PATH=/tmp/cairn-peers/aiida-api-home gunicorn --workers 2 --chdir jmh/api-peer aiida_wsgi:app

The app is what `verdi restapi` serves with Flask's development server: aiida.restapi.run_api.configure_api
with its defaults (configuration of aiida/restapi/common/config.py, POST /querybuilder enabled), for the
profile named by AIIDA_PROFILE (default cairn-api, see setup-aiida-api.sh). Each gunicorn worker imports
this module itself (no --preload), so each has its own database connections.
"""
import os

from aiida import load_profile
from aiida.restapi.run_api import configure_api

profile = os.environ.get('AIIDA_PROFILE', 'cairn-api')
load_profile(profile)
app = configure_api(profile=profile).app

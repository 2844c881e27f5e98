"""The admin API's wire facts, shared by the server (``web``) and its client (``envs``) so that
neither imports the other."""

SECRET_HEADER = "x-openapps-secret"
SECRET_ENV = "OPENAPPS_ADMIN_SECRET"

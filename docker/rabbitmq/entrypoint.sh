#!/bin/bash
# Writes the broker's settings (its user from RABBITMQ_DEFAULT_USER and RABBITMQ_DEFAULT_PASS, taken at the
# node's first start) and runs RabbitMQ in the foreground.
set -euo pipefail
if [[ -n ${RABBITMQ_DEFAULT_PASS_FILE:-} ]]; then
  RABBITMQ_DEFAULT_PASS=$(<"$RABBITMQ_DEFAULT_PASS_FILE")
fi
{
  printf 'listeners.tcp.default = 5672\n'
  printf 'loopback_users = none\n'
  printf 'default_user = %s\n' "${RABBITMQ_DEFAULT_USER:-guest}"
  printf 'default_pass = %s\n' "${RABBITMQ_DEFAULT_PASS:-guest}"
} >/etc/rabbitmq/rabbitmq.conf
exec rabbitmq-server "$@"

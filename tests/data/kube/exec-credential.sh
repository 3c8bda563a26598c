#!/bin/sh
# A client.authentication.k8s.io/v1 credential plugin, as kubectl runs them:
# it gets KUBERNETES_EXEC_INFO and prints an ExecCredential.
# Like plugins that may prompt, it reads standard input: it must be closed.
cat > /dev/null
case "$KUBERNETES_EXEC_INFO" in
  *ExecCredential*) ;;
  *) echo "no KUBERNETES_EXEC_INFO" >&2; exit 1 ;;
esac
if [ -z "$EXEC_TOKEN" ]; then
  echo "no EXEC_TOKEN in the environment" >&2
  exit 2
fi
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"2099-01-01T00:00:00Z"}}\n' "$EXEC_TOKEN"

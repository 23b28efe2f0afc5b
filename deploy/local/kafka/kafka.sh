#!/usr/bin/env bash
# Single-node Apache Kafka 3.9 (KRaft) for local development, tests and CI.
#   kafka.sh start   fetch jars if missing, format storage once, start in background, wait until ready
#   kafka.sh stop    stop the broker started by this script
#   kafka.sh status  exit 0 when 127.0.0.1:$KAFKA_PORT answers
# Data and logs live under deploy/local/.data/kafka (git-ignored).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data="${KAFKA_DATA_DIR:-$here/../.data/kafka}"
port="${KAFKA_PORT:-9092}"
ctrl_port="${KAFKA_CONTROLLER_PORT:-9093}"
heap="${KAFKA_HEAP:-512m}"
pidfile="$data/broker.pid"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

fetch_jars() {
  if [ ! -f "$here/libs/.complete" ]; then
    echo "kafka: fetching broker jars from Maven Central" >&2
    mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$here/libs"
    touch "$here/libs/.complete"
  fi
}

write_config() {
  mkdir -p "$data/logs"
  cat >"$data/server.properties" <<CONF
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$ctrl_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$ctrl_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
log.dirs=$data/logs
num.partitions=3
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
log.retention.hours=168
CONF
  cat >"$data/log4j.properties" <<CONF
log4j.rootLogger=WARN, file
log4j.appender.file=org.apache.log4j.FileAppender
log4j.appender.file.File=$data/broker.log
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaServer=INFO
log4j.logger.kafka.server.BrokerServer=INFO
CONF
}

java_cmd() {
  java "-Xms128m" "-Xmx$heap" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
    "-Dlog4j.configuration=file:$data/log4j.properties" -cp "$here/libs/*" "$@"
}

start() {
  if port_open "$port"; then echo "kafka: already answering on 127.0.0.1:$port"; return 0; fi
  fetch_jars
  write_config
  if [ ! -f "$data/logs/meta.properties" ]; then
    java_cmd kafka.tools.StorageTool format -t "caravan-local-kafka-000001" -c "$data/server.properties" >/dev/null
  fi
  local t0=$SECONDS
  # setsid: the broker outlives the shell that started it and gets no Ctrl-C meant for npm start
  setsid nohup java -Xms128m "-Xmx$heap" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true \
    "-Dlog4j.configuration=file:$data/log4j.properties" -cp "$here/libs/*" kafka.Kafka "$data/server.properties" \
    >"$data/stdout.log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  for _ in $(seq 1 240); do
    if port_open "$port"; then echo "kafka: ready on 127.0.0.1:$port in $((SECONDS - t0))s (pid $(cat "$pidfile"))"; return 0; fi
    if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then echo "kafka: broker exited, see $data/stdout.log" >&2; tail -20 "$data/stdout.log" >&2; return 1; fi
    sleep 0.5
  done
  echo "kafka: not ready after 120s" >&2; return 1
}

stop() {
  [ -f "$pidfile" ] || { echo "kafka: not started by this script"; return 0; }
  local pid; pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  fi
  rm -f "$pidfile"; echo "kafka: stopped"
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  status) port_open "$port" ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac

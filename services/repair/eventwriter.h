#pragma once

#include "core/repairevent.h"

#include <QString>

struct ApiResponse;
class HttpCall;
class KubernetesClient;

// A repair's Kubernetes Event written to the kluster's API server (events.k8s.io/v1, namespace default, as
// RepairEvent::toEvent makes it): the record teammates and their consoles read (diagnosis.md §5).
namespace RepairEventWriter {

// Sends the Event; the call's answer says whether it was written (outcome()).
HttpCall *write(KubernetesClient *kube, const RepairEvent &event);

// The outcome of that answer in words: " written", or " not written: <why>" (an Event of the same name there
// already, a verification written twice, counts as written).
QString outcome(const ApiResponse &answer);

// This process's reportingInstance: the host and the program with its pid.
QString instance();

} // namespace RepairEventWriter

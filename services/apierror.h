#pragma once

#include <QByteArray>
#include <QString>

// What went wrong with a call to a cloud API, naming the service, the method,
// the path, the HTTP status and the server's own message, so that every error
// a person sees says what failed and why.
struct ApiError
{
    enum class Kind {
        None,
        Network,    // connection refused, reset, closed without an answer
        Tls,        // certificate not trusted, handshake failed
        Timeout,    // no answer in time
        TooLarge,   // an answer larger than a body may be (InputLimits)
        Http,       // the server answered with an error status
        Malformed,  // the answer is not the JSON it should be
        Cancelled,
        Auth,       // authentication failed or no credentials
        Config,     // bad or missing configuration (clouds.yaml, kubeconfig)
    };

    Kind kind = Kind::None;
    QString service;        // compute, network, identity, kubernetes, kubernikus
    QString method;
    QString path;
    int status = 0;
    QString serverMessage;  // the server's own words
    QString detail;         // our words, when the server gave none

    bool isError() const { return kind != Kind::None; }
    // "network: PUT /v2.0/routers/r1: 409 Conflict: Router r1 ... (RouterInUse)"
    QString toString() const;

    // The server's message from an error body: NeutronError, Nova faults,
    // Keystone errors, Kubernetes Status, Kubernikus errors, or the first line
    // of an HTML or plain-text body.
    static QString messageFromBody(const QByteArray &body, const QByteArray &contentType);
};

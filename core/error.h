#pragma once

#include <QMetaType>
#include <QString>

// What went wrong, wherever it happened: a call to a cloud API (the service,
// the method, the path, the HTTP status), an input that could not be read (a
// file, or a body named in words, and the JSON path in it), or both (an answer
// whose body was refused); why, in our words; the server's own words; and
// whether trying again can help. Parsers, services and the fetcher produce it;
// the command line prints it and the console's banner shows it, both as the
// one line toString() makes.
struct Error
{
    enum class Kind
    {
        None,
        Network, // connection refused, reset, closed without an answer
        Tls, // certificate not trusted, handshake failed
        Timeout, // no answer in time
        TooLarge, // an answer or a file larger than a body may be (InputLimits)
        Http, // the server answered with an error status
        Malformed, // the answer or the file is not the JSON it should be
        Cancelled,
        Auth, // authentication failed or no credentials
        Config, // bad or missing configuration (clouds.yaml, kubeconfig)
        Io, // a file or folder that is missing, not a regular file, or cannot be read or written
        Held, // not sent: its endpoint has been failing, and is given a rest (HttpClient's shared backoff)
    };

    Kind kind = Kind::None;
    // The request, when a call failed: compute, network, identity, kubernetes, kubernikus.
    QString service;
    QString method;
    QString path;
    int status = 0;
    // The input that could not be read, and where in it ("$.servers[3].id").
    QString source;
    QString jsonPath;
    QString serverMessage; // the server's own words
    QString detail; // our words

    // Why alone, in our words (a configuration that is wrong says where itself).
    static Error of(Kind kind, const QString &detail);
    // An input that could not be read: a file, or a body named in words.
    static Error inSource(
        Kind kind, const QString &source, const QString &detail, const QString &jsonPath = QString());

    bool isError() const { return kind != Kind::None; }
    // Whether the same request, sent again unchanged, may succeed: the network, a timeout, a cancel, a busy
    // or failing server (408, 429, 5xx). Refusals, bad answers and wrong configuration stay as they are.
    bool retryCanHelp() const;

    // One line. A call: "network: PUT /v2.0/routers/r1: HTTP 409: Router r1 ... [RouterInUse]"; an
    // answer refused: "compute: malformed answer: servers: $.servers[3].id: required field is missing";
    // an input: "servers.json: $.servers[3].id: required field is missing"; else the detail.
    QString toString() const;
};
Q_DECLARE_METATYPE(Error)

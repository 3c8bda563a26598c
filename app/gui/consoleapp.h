#pragma once

#include "services/local/singleinstance.h"
#include "services/monitoring/alertmanagerclient.h"

#include <QObject>
#include <QString>
#include <memory>

class ConsoleSession;
class DemoCloud;
class MainWindow;

// The desktop console as one object: it owns the session (connections, refreshes, the store, the history:
// console/consolesession.h) and hands it to the window, takes the links other processes send (one console
// per user: core/flightdecklink.h), and runs the built-in simulated cloud when it is asked for. main()
// reads the command line and starts it; tests drive the session where they test behaviour.
class ConsoleApp : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConsoleApp)

public:
    // What `--demo` starts: a scenario file (empty: the default), or a generated world of `generatedNodes`
    // (with `klusters`: a region of that many, of mixed sizes when `mixedSizes`); its Alertmanager, if any.
    struct Demo
    {
        QString scenario;
        int generatedNodes = 0;
        int klusters = 0;
        bool mixedSizes = false;
        AlertmanagerTarget alertmanager;
    };

    explicit ConsoleApp(const Demo &demo, QObject *parent = nullptr);
    ~ConsoleApp() override;

    ConsoleSession *session() const { return m_session; }
    MainWindow *window() const { return m_window.get(); }

    // Listens for links (`flightdeck LINK`, a browser, a notification), opened in the window; says on
    // standard error why it cannot, unless another console takes them.
    void takeLinks();
    // Starts the built-in simulated cloud (once) and adds it as the connection "demo" when it is up.
    void startDemo();

private:
    ConsoleSession *m_session; // a child: deleted after the window
    std::unique_ptr<MainWindow> m_window;
    SingleInstance m_instance;
    Demo m_demo;
    std::unique_ptr<DemoCloud> m_demoCloud;
};

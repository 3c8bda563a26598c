"""A tiny ML2 mechanism driver for a Neutron without agents (integration tests).

With no L2 agent, no real mechanism driver binds a port, and Nova refuses to
boot an instance whose port stays unbound. This driver binds every port that
asks for a host to the first segment offered, as an Open vSwitch port, ACTIVE.
There is no data plane: nothing is plugged anywhere.
"""

from neutron_lib.api.definitions import portbindings
from neutron_lib import constants
from neutron_lib.plugins.ml2 import api


class BindAllMechanismDriver(api.MechanismDriver):

    def initialize(self):
        pass

    def bind_port(self, context):
        for segment in context.segments_to_bind:
            context.set_binding(
                segment[api.ID],
                portbindings.VIF_TYPE_OVS,
                {portbindings.CAP_PORT_FILTER: True,
                 portbindings.OVS_HYBRID_PLUG: False},
                status=constants.PORT_STATUS_ACTIVE)
            return

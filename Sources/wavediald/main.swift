import Supervisor

import { describeDatabaseFault } from './database-fault-scenario';

describeDatabaseFault('reset');

import { describeDatabaseFault } from './database-fault-scenario';

describeDatabaseFault('freeze-existing-links');

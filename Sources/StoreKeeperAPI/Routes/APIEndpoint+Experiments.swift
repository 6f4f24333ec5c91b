/// The routes of experiments on offerings.
extension APIEndpoint {
    /// `POST /v1/experiments`: a new experiment (a draft).
    public static let postExperiment = APIEndpoint(
        .post, "v1/experiments", .secretKey(.admin),
        APIOperation(
            "Add an experiment on offerings (a draft until started)", body: .type(ExperimentPost.self), status: 201,
            answer: APIOperation.json(.type(Experiment.self)), errors: ["400", "401", "403", "409", "413", "5XX"]))
    /// `GET /v1/experiments`: the project's experiments.
    public static let getExperiments = APIEndpoint(
        .get, "v1/experiments", .secretKey(.read),
        APIOperation(
            "The project's experiments", answer: APIOperation.json(.type(ExperimentsResponse.self)),
            errors: ["401", "403", "5XX"]))
    /// `GET /v1/experiments/{identifier}`: one experiment.
    public static let getExperiment = APIEndpoint(
        .get, "v1/experiments/\(.experimentID)", .secretKey(.read),
        APIOperation(
            "One experiment", answer: APIOperation.json(.type(Experiment.self)),
            errors: ["401", "403", "404", "5XX"]))
    /// `POST /v1/experiments/{identifier}/start`: start enrolling.
    public static let startExperiment = APIEndpoint(
        .post, "v1/experiments/\(.experimentID)/start", .secretKey(.admin),
        APIOperation(
            "Start enrolling customers who ask for offerings (one experiment runs at a time)",
            answer: APIOperation.json(.type(Experiment.self)),
            errors: ["400", "401", "403", "404", "409", "413", "5XX"]))
    /// `POST /v1/experiments/{identifier}/stop`: stop enrolling (results stay).
    public static let stopExperiment = APIEndpoint(
        .post, "v1/experiments/\(.experimentID)/stop", .secretKey(.admin),
        APIOperation(
            "Stop enrolling (results stay)", answer: APIOperation.json(.type(Experiment.self)),
            errors: ["400", "401", "403", "404", "409", "413", "5XX"]))
    /// `GET /v1/experiments/{identifier}/results`: what each variant's customers did.
    public static let getExperimentResults = APIEndpoint(
        .get, "v1/experiments/\(.experimentID)/results", .secretKey(.read),
        APIOperation(
            "What each variant's enrolled customers did since enrolment, compared with the first variant",
            answer: APIOperation.json(.type(ExperimentResults.self)),
            errors: ["401", "403", "404", "5XX"]))

    /// This feature's routes, in the order the OpenAPI document lists them.
    static let experimentsRoutes: [APIEndpoint] = [
        postExperiment, getExperiments, getExperiment, startExperiment, stopExperiment, getExperimentResults,
    ]
}
